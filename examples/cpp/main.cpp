// A minimal Kassen bot in C++: place as many soldiers as the dice allow, else play randomly.
//
// It joins one seat over gRPC (kassen.v1.Referee/Play), answers every DecisionRequest, replies
// to pings, and prints the result and the revealed seed when MatchOver arrives. If the stream
// drops before the match is over it rejoins once with the same ticket; if another connection
// takes the seat over (a "displaced" notice) it stops without rejoining and exits with code 3.
// See examples/cpp/README.md.
//
//   KASSEN_ADDRESS=127.0.0.1:50051 KASSEN_TICKET=... [KASSEN_SEED=1] build/kassen_bot
//
// KASSEN_ADDRESS is host:port, or unix:PATH (also unix:///PATH) for a referee on a Unix socket,
// as in a ladder's sandbox: gRPC's channel takes both as they are.
//
// The ticket comes from the file named by KASSEN_TICKET_FILE if it is set (a bot the referee
// launches gets it that way: a pipe it can read once, so no other process finds the ticket in
// its environment), else from KASSEN_TICKET (for a bot started by hand).
//
// In ladder mode it keeps a kassen.v1.Ladder/Seek stream open and plays every match the ladder
// assigns it, each on its own thread:
//
//   build/kassen_bot --ladder 127.0.0.1:50061 --token-file mybot.token [--matches N]

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include <grpcpp/grpcpp.h>

#include "kassen/v1/ladder.grpc.pb.h"   // generated at build time from proto/
#include "kassen/v1/referee.grpc.pb.h"

namespace {

using kassen::v1::Assignment;
using kassen::v1::DecisionRequest;
using kassen::v1::Ladder;
using kassen::v1::MatchOver;
using kassen::v1::PlayRequest;
using kassen::v1::PlayResponse;
using kassen::v1::Referee;
using kassen::v1::SeekRequest;
using kassen::v1::SeekResponse;

constexpr const char* kBotName = "cpp-example";
// The exit code of a bot whose seat another connection took over: it did not finish its match.
constexpr int kExitDisplaced = 3;

// ---------------------------------------------------------------- the strategy

// Parses "place:<castle>:<soldiers>" or "place:<castle>:<soldiers>:daimyo".
bool parse_place(const std::string& key, unsigned& castle, unsigned& soldiers) {
  return std::sscanf(key.c_str(), "place:%u:%u", &castle, &soldiers) == 2;
}

// Put your own logic here: return an index into request.options().
// request.kind() names the decision ("turn", "after_roll", ...; docs/games/rumble-nation.md),
// request.observation().rumble_nation() is everything this seat may see, request.clock() its time.
int choose(const DecisionRequest& request, std::mt19937& rng) {
  // Any placement? Take the one with the most soldiers; ties go to the higher castle.
  int best = -1;
  unsigned best_castle = 0, best_soldiers = 0;
  for (int i = 0; i < request.options_size(); ++i) {
    unsigned castle = 0, soldiers = 0;
    if (!parse_place(request.options(i).key(), castle, soldiers)) continue;
    if (best < 0 || soldiers > best_soldiers ||
        (soldiers == best_soldiers && castle > best_castle)) {
      best = i;
      best_castle = castle;
      best_soldiers = soldiers;
    }
  }
  if (best >= 0) return best;
  if (request.options_size() == 0) return 0;  // never offered, but stay in range
  // Otherwise a uniformly random option.
  std::uniform_int_distribution<int> pick(0, request.options_size() - 1);
  return pick(rng);
}

// ---------------------------------------------------------------- the protocol

// One line to stderr; a whole line at a time, since matches may run on several threads.
void log(const std::string& line) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::cerr << kBotName << ": " << line << std::endl;
}

// The seat's ticket: from the file named by KASSEN_TICKET_FILE if it is set (read once: a
// launched bot's pipe holds nothing more afterwards), else from KASSEN_TICKET. Without one,
// nullopt and `error` says where it looked.
std::optional<std::string> seat_ticket(std::string& error) {
  const char* path = std::getenv("KASSEN_TICKET_FILE");
  if (path && *path) {
    std::ifstream file(path);
    if (!file) {
      error = std::string("cannot read the seat ticket from KASSEN_TICKET_FILE=") + path + ": " +
              std::strerror(errno);
      return std::nullopt;
    }
    std::string ticket;
    file >> ticket;  // the ticket, without surrounding whitespace
    if (ticket.empty()) {
      error = std::string("KASSEN_TICKET_FILE=") + path + " holds no seat ticket";
      return std::nullopt;
    }
    return ticket;
  }
  const char* ticket = std::getenv("KASSEN_TICKET");
  if (ticket && *ticket) return std::string(ticket);
  error =
      "no seat ticket: set KASSEN_TICKET_FILE (a file holding it; a bot the referee launches has"
      " it) or KASSEN_TICKET";
  return std::nullopt;
}

// Codes after which rejoining cannot help (wrong ticket, malformed messages...).
bool is_fatal(grpc::StatusCode code) {
  return code == grpc::StatusCode::PERMISSION_DENIED ||
         code == grpc::StatusCode::INVALID_ARGUMENT ||
         code == grpc::StatusCode::UNIMPLEMENTED ||
         code == grpc::StatusCode::RESOURCE_EXHAUSTED;
}

std::string describe(const grpc::Status& status) {
  if (status.ok()) return "the stream ended before the match did";
  return "gRPC status " + std::to_string(status.error_code()) + ": " + status.error_message();
}

// A channel to `address` (host:port or unix:PATH): plaintext, or with `tls` TLS checked against
// the system's roots (a ladder's referee may speak TLS; this bot trusts no CA of its own).
std::shared_ptr<grpc::Channel> open_channel(const std::string& address, bool tls) {
  return grpc::CreateChannel(address, tls ? grpc::SslCredentials(grpc::SslCredentialsOptions())
                                          : grpc::InsecureChannelCredentials());
}

// Plays one Play stream: Join, then answer until MatchOver. Returns the MatchOver, or nothing
// if the stream ended or failed first (its final status is left in `status`; `displaced` is set
// if another stream took the seat over). `seat` is learnt from Joined and kept across streams.
std::optional<MatchOver> play_stream(Referee::Stub& stub, const std::string& ticket,
                                     std::mt19937& rng, std::optional<uint32_t>& seat,
                                     grpc::Status& status, bool& displaced) {
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReaderWriter<PlayRequest, PlayResponse>> stream =
      stub.Play(&context);

  PlayRequest join;
  join.mutable_join()->set_ticket(ticket);
  join.mutable_join()->set_bot_name(kBotName);
  if (!stream->Write(join)) {
    status = stream->Finish();
    return std::nullopt;
  }

  uint64_t last_answered = 0;  // the stale rule: per stream, answer only newer requests
  PlayResponse message;
  // Replies are written synchronously after each read, so one thread is enough. A failed Write
  // means the stream is broken; the next Read then returns false.
  while (stream->Read(&message)) {
    switch (message.message_case()) {
      case PlayResponse::kJoined: {
        const auto& joined = message.joined();
        seat = joined.seat();
        log("joined match " + joined.match_id() + " as seat " + std::to_string(joined.seat()) +
            " (" + joined.setup().game() + " " + joined.setup().variant() + ", " +
            std::to_string(joined.setup().players()) + " players, seed commitment " +
            joined.setup().seed_commitment() + ")");
        break;
      }
      case PlayResponse::kDecision: {
        const DecisionRequest& request = message.decision();
        if (request.request_id() <= last_answered) {
          log("ignoring stale request " + std::to_string(request.request_id()) +
              " (already answered " + std::to_string(last_answered) + ")");
          break;
        }
        if (!seat) seat = request.seat();
        const auto started = std::chrono::steady_clock::now();
        const int index = choose(request, rng);
        const auto think = std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now() - started);

        PlayRequest reply;
        auto* answer = reply.mutable_answer();
        answer->set_request_id(request.request_id());
        answer->set_option_index(static_cast<uint32_t>(index));
        answer->set_think_time_us(static_cast<uint64_t>(think.count()));
        last_answered = request.request_id();
        stream->Write(reply);
        break;
      }
      case PlayResponse::kPing: {
        PlayRequest reply;
        reply.mutable_pong()->set_nonce(message.ping().nonce());
        stream->Write(reply);
        break;
      }
      case PlayResponse::kNotice:
        if (message.notice().code() == "displaced") {
          // Another stream joined with our ticket and the referee ends this one: stop now.
          displaced = true;
          context.TryCancel();
          status = stream->Finish();
          return std::nullopt;
        }
        log("notice " + message.notice().code() + ": " + message.notice().message());
        break;
      case PlayResponse::kEvents:
        break;  // public events between decisions; this bot does not track them
      case PlayResponse::kMatchOver: {
        MatchOver over = message.match_over();
        stream->WritesDone();  // close our side; MatchOver is the last message
        status = stream->Finish();
        return over;
      }
      default:
        break;  // an empty or newer message kind: ignore
    }
  }
  status = stream->Finish();
  return std::nullopt;
}

// Plays one match with its ticket, with a fresh RNG seeded by `seed`: the first stream, and one
// rejoin with the same ticket if it drops before MatchOver, but none after a "displaced" notice
// (a rejoin would take the seat back from the connection that replaced us). Returns 0 once the
// result line is printed, kExitDisplaced, or 1.
int play_match(Referee::Stub& stub, const std::string& ticket, std::mt19937::result_type seed) {
  std::mt19937 rng(seed);
  std::optional<uint32_t> seat;
  constexpr int kAttempts = 2;  // the first stream, and one rejoin
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    grpc::Status status;
    bool displaced = false;
    std::optional<MatchOver> over = play_stream(stub, ticket, rng, seat, status, displaced);
    if (over) {
      std::string line = "match over: seat " + (seat ? std::to_string(*seat) : "?");
      for (const auto& result : over->seats()) {
        if (seat && result.seat() == *seat) {
          line += " rank " + std::to_string(result.rank()) + " score " +
                  std::to_string(result.score());
        }
      }
      // Printed unchecked (no SHA-256 linked here): the commitment in Joined is the lowercase
      // hex SHA-256 of "<seed>:<salt>".
      line += over->has_seed_reveal() ? ", seed " + std::to_string(over->seed_reveal().seed())
                                      : ", seed not revealed yet";
      std::cout << line + "\n" << std::flush;
      return 0;
    }
    if (displaced) {
      log("displaced: another connection took this seat over");
      return kExitDisplaced;
    }
    if (is_fatal(status.error_code())) {
      log("refused by the referee (" + describe(status) + ")");
      return 1;
    }
    if (attempt < kAttempts) {
      // The referee keeps the seat for a few seconds and re-sends the pending request.
      log("stream lost (" + describe(status) + "); rejoining");
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    } else {
      log("stream lost again (" + describe(status) + "); giving up");
    }
  }
  return 1;
}

// ---------------------------------------------------------------- ladder mode

struct LadderOptions {
  std::string address;
  std::string token_file;
  unsigned matches = 0;  // stop seeking after this many assignments (0: never)
  unsigned concurrency = 1;
};

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// Reads --ladder, --token-file, --matches and --concurrency (the first two default to
// KASSEN_LADDER_ADDRESS and KASSEN_TOKEN_FILE). Returns nothing in one-match mode; sets `error`
// on a bad argument.
std::optional<LadderOptions> parse_ladder_options(int argc, char** argv, std::string& error) {
  LadderOptions options{env_or_empty("KASSEN_LADDER_ADDRESS"), env_or_empty("KASSEN_TOKEN_FILE")};
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    std::optional<std::string> value;
    if (const auto equals = flag.find('='); equals != std::string::npos) {
      value = flag.substr(equals + 1);
      flag.resize(equals);
    } else if (i + 1 < argc) {
      value = argv[++i];
    }
    if (!value) {
      error = flag + " needs a value";
      return std::nullopt;
    }
    auto number = [&](unsigned& into) {
      char* end = nullptr;
      const unsigned long n = std::strtoul(value->c_str(), &end, 10);
      if (value->empty() || *end != '\0' || (*value)[0] == '-') {
        error = flag + " needs a non-negative integer, got '" + *value + "'";
        return;
      }
      into = static_cast<unsigned>(n);
    };
    if (flag == "--ladder") {
      options.address = *value;
    } else if (flag == "--token-file") {
      options.token_file = *value;
    } else if (flag == "--matches") {
      number(options.matches);
    } else if (flag == "--concurrency") {
      number(options.concurrency);
    } else {
      error = "unknown argument " + flag;
    }
    if (!error.empty()) return std::nullopt;
  }
  if (options.address.empty() && options.token_file.empty()) return std::nullopt;
  if (options.address.empty() || options.token_file.empty()) {
    error = "ladder mode needs both --ladder ADDRESS and --token-file FILE";
  } else if (options.concurrency < 1 || options.concurrency > 16) {
    error = "--concurrency must be between 1 and 16";
  }
  if (!error.empty()) return std::nullopt;
  return options;
}

// Seek errors that no retry can fix: no or an unknown token, a paused or revoked bot, a bad
// request, or a newer Seek stream of the same bot (FAILED_PRECONDITION).
bool is_refusal(grpc::StatusCode code) {
  return code == grpc::StatusCode::UNAUTHENTICATED ||
         code == grpc::StatusCode::PERMISSION_DENIED ||
         code == grpc::StatusCode::INVALID_ARGUMENT ||
         code == grpc::StatusCode::FAILED_PRECONDITION;
}

// The matches being played, each on its own (detached) thread, and how many failed.
class Matches {
 public:
  // `stub` is on the ladder's own channel: for assignments that name no other referee.
  void start(Referee::Stub& stub, const Assignment& assignment,
             std::mt19937::result_type seed) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++active_;
    }
    std::thread([this, &stub, ticket = assignment.ticket(), id = assignment.match_id(),
                 hosted_by = assignment.referee_address(), tls = assignment.referee_tls(), seed] {
      // A match that another referee hosts is played there, on a channel of its own.
      std::unique_ptr<Referee::Stub> own;
      if (!hosted_by.empty()) {
        log("match " + id + " is hosted by the referee at " + hosted_by);
        own = Referee::NewStub(open_channel(hosted_by, tls));
      }
      const int code = play_match(own ? *own : stub, ticket, seed);
      if (code != 0) log("match " + id + " was not played to its end");
      std::lock_guard<std::mutex> lock(mutex_);
      failed_ += code != 0;
      --active_;
      changed_.notify_all();
    }).detach();
  }

  // Waits for every match to end; returns how many failed.
  unsigned wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return active_ == 0; });
    return failed_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  unsigned active_ = 0;
  unsigned failed_ = 0;
};

// How one Seek stream ended.
enum class SeekEnd { kEnough, kRefused, kLost };

// Reads one Seek stream, starting a match for each assignment. kEnough once --matches were
// assigned (the call is cancelled then, so the ladder assigns nothing we would leave
// unplayed); otherwise the stream's final status is left in `status`, and `heard` says whether a
// message came first.
SeekEnd seek_once(Ladder::Stub& ladder, Referee::Stub& referee, const LadderOptions& options,
                  const std::string& token, std::mt19937::result_type seed, unsigned& started,
                  Matches& matches, grpc::Status& status, bool& heard) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + token);
  SeekRequest request;
  request.set_concurrency(options.concurrency);
  std::unique_ptr<grpc::ClientReader<SeekResponse>> stream = ladder.Seek(&context, request);
  SeekResponse message;
  while (stream->Read(&message)) {
    heard = true;
    switch (message.kind_case()) {
      case SeekResponse::kSeeking:
        log("seeking as bot " + message.seeking().bot_id() + " (" +
            std::to_string(message.seeking().concurrency()) + " at once)");
        break;
      case SeekResponse::kAssignment: {
        const Assignment& assignment = message.assignment();
        ++started;
        log("assigned match " + assignment.match_id() + ", seat " +
            std::to_string(assignment.seat()) + " (" + assignment.setup().game() + " " +
            assignment.setup().variant() + ")");
        matches.start(referee, assignment, seed + started);
        if (options.matches > 0 && started >= options.matches) {
          context.TryCancel();
          stream->Finish();
          return SeekEnd::kEnough;
        }
        break;
      }
      case SeekResponse::kMatchEnded: {
        // reason is the match's; seat_reason (and detail) what happened to our seat.
        const auto& ended = message.match_ended();
        log("match " + ended.match_id() + " ended (" +
            kassen::v1::ResultReason_Name(ended.reason()) + "), rank " +
            std::to_string(ended.rank()) + "; our seat " + std::to_string(ended.seat()) +
            ": " + kassen::v1::ResultReason_Name(ended.seat_reason()) + " " + ended.detail());
        break;
      }
      default:
        break;  // an empty or newer message kind: ignore
    }
  }
  status = stream->Finish();
  return is_refusal(status.error_code()) ? SeekEnd::kRefused : SeekEnd::kLost;
}

// Seeks until the ladder refuses the bot or --matches were assigned, then waits for the
// matches in progress. 0: every match was played to its end.
int run_ladder(const LadderOptions& options, std::mt19937::result_type seed) {
  std::ifstream file(options.token_file);
  if (!file) {
    log("cannot read the token file " + options.token_file);
    return 2;
  }
  std::string token;
  file >> token;  // the token, without surrounding whitespace
  if (token.empty()) {
    log("the token file " + options.token_file + " is empty");
    return 2;
  }
  // Matches go over the same channel; only Seek carries the token (a match is joined with its
  // ticket).
  auto channel = open_channel(options.address, false);
  std::unique_ptr<Ladder::Stub> ladder = Ladder::NewStub(channel);
  std::unique_ptr<Referee::Stub> referee = Referee::NewStub(channel);

  // The pause before the n-th reconnect doubles from 250 ms up to 10 s, with jitter.
  std::mt19937 jitter(std::random_device{}());
  Matches matches;
  unsigned started = 0;
  int code = 0;
  for (unsigned attempt = 1;; ++attempt) {
    grpc::Status status;
    bool heard = false;
    const SeekEnd end =
        seek_once(*ladder, *referee, options, token, seed, started, matches, status, heard);
    if (end == SeekEnd::kEnough) break;
    if (end == SeekEnd::kRefused) {
      log("the ladder refused the bot: " + status.error_message() + " (gRPC status " +
          std::to_string(status.error_code()) + ")");
      code = 1;
      break;
    }
    if (heard) attempt = 1;  // the stream worked for a while: start the backoff over
    const long ceiling = std::min(10'000L, 250L << std::min(attempt - 1, 10U));
    const long pause = std::uniform_int_distribution<long>(ceiling / 2, ceiling)(jitter);
    log("seek stream lost (" +
        (status.ok() ? std::string("the ladder ended the stream") : describe(status)) +
        "); reconnecting in " + std::to_string(pause) + " ms");
    std::this_thread::sleep_for(std::chrono::milliseconds(pause));
  }
  if (const unsigned failed = matches.wait(); failed > 0) {
    log(std::to_string(failed) + " of " + std::to_string(started) +
        " matches were not played to their end");
    code = 1;
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  std::mt19937::result_type seed = 1;
  if (const char* text = std::getenv("KASSEN_SEED"); text && *text) {
    char* end = nullptr;
    seed = static_cast<std::mt19937::result_type>(std::strtoull(text, &end, 10));
    if (*end != '\0') {
      std::cerr << kBotName << ": KASSEN_SEED must be an integer, got '" << text << "'"
                << std::endl;
      return 2;
    }
  }
  std::string error;
  const std::optional<LadderOptions> ladder = parse_ladder_options(argc, argv, error);
  if (!error.empty()) {
    log(error);
    return 2;
  }
  if (ladder) return run_ladder(*ladder, seed);

  const char* address = std::getenv("KASSEN_ADDRESS");
  if (!address || !*address) {
    std::cerr << kBotName
              << ": set KASSEN_ADDRESS (host:port or unix:PATH) and the seat's ticket"
                 " (KASSEN_TICKET_FILE or KASSEN_TICKET), or use ladder mode"
                 " (--ladder ADDRESS --token-file FILE)"
              << std::endl;
    return 2;
  }
  const std::optional<std::string> ticket = seat_ticket(error);
  if (!ticket) {
    log(error);
    return 2;
  }
  auto channel = open_channel(address, false);
  std::unique_ptr<Referee::Stub> stub = Referee::NewStub(channel);
  return play_match(*stub, *ticket, seed);
}
