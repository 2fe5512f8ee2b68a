// A minimal Kassen bot in C++: place as many soldiers as the dice allow, else play randomly.
//
// It joins one seat over gRPC (kassen.v1.Referee/Play), answers every DecisionRequest, replies
// to pings, and prints the result and the revealed seed when MatchOver arrives. If the stream
// drops before the match is over it rejoins once with the same ticket; if another connection
// takes the seat over (a "displaced" notice) it stops without rejoining and exits with code 3.
// See examples/cpp/README.md.
//
//   KASSEN_ADDRESS=127.0.0.1:50051 KASSEN_TICKET=... [KASSEN_SEED=1] build/kassen_bot

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include <grpcpp/grpcpp.h>

#include "kassen/v1/referee.grpc.pb.h"  // generated at build time from proto/

namespace {

using kassen::v1::DecisionRequest;
using kassen::v1::MatchOver;
using kassen::v1::PlayRequest;
using kassen::v1::PlayResponse;
using kassen::v1::Referee;

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

void log(const std::string& line) { std::cerr << kBotName << ": " << line << std::endl; }

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

}  // namespace

int main() {
  const char* address = std::getenv("KASSEN_ADDRESS");
  const char* ticket = std::getenv("KASSEN_TICKET");
  if (!address || !*address || !ticket || !*ticket) {
    std::cerr << kBotName << ": set KASSEN_ADDRESS (host:port) and KASSEN_TICKET" << std::endl;
    return 2;
  }
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
  std::mt19937 rng(seed);

  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  std::unique_ptr<Referee::Stub> stub = Referee::NewStub(channel);

  std::optional<uint32_t> seat;
  constexpr int kAttempts = 2;  // the first stream, and one rejoin
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    grpc::Status status;
    bool displaced = false;
    std::optional<MatchOver> over = play_stream(*stub, ticket, rng, seat, status, displaced);
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
      std::cout << line << std::endl;
      return 0;
    }
    if (displaced) {
      // A rejoin would take the seat back from the connection that replaced us.
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
