package dev.kassen.example;

import dev.kassen.v1.Assignment;
import dev.kassen.v1.LadderGrpc;
import dev.kassen.v1.MatchEnded;
import dev.kassen.v1.RefereeGrpc;
import dev.kassen.v1.SeekRequest;
import dev.kassen.v1.SeekResponse;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ladder mode: keep one Ladder/Seek stream open with the bot's token and play every match the
 * ladder assigns, each on its own thread with a fresh {@link KassenBot}, up to the declared
 * concurrency. Reconnects with backoff when the ladder is unreachable; stops when it refuses the
 * bot (unknown token, paused, revoked).
 */
final class LadderMode {
  /** The pause before the n-th reconnect doubles from this up to BACKOFF_CAP_MS (jittered). */
  private static final long BACKOFF_MS = 250;
  private static final long BACKOFF_CAP_MS = 10_000;
  /**
   * Seek errors that no retry can fix: no or an unknown token, a paused or revoked bot, a bad
   * request, or a newer Seek stream of the same bot (FAILED_PRECONDITION).
   */
  private static final Set<Status.Code> REFUSALS = Set.of(
      Status.Code.UNAUTHENTICATED,
      Status.Code.PERMISSION_DENIED,
      Status.Code.INVALID_ARGUMENT,
      Status.Code.FAILED_PRECONDITION);
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  /** The ladder-mode options. */
  record Options(String address, String tokenFile, int matches, int concurrency) {
    /**
     * Reads {@code --ladder}, {@code --token-file}, {@code --matches} and {@code --concurrency}
     * (the first two default to KASSEN_LADDER_ADDRESS and KASSEN_TOKEN_FILE); null: one-match
     * mode. Throws IllegalArgumentException on a bad argument.
     */
    static Options parse(String[] args) {
      String address = envOrEmpty("KASSEN_LADDER_ADDRESS");
      String tokenFile = envOrEmpty("KASSEN_TOKEN_FILE");
      int matches = 0;
      int concurrency = 1;
      for (int i = 0; i < args.length; i++) {
        String flag = args[i];
        String value = null;
        int equals = flag.indexOf('=');
        if (equals >= 0) {
          value = flag.substring(equals + 1);
          flag = flag.substring(0, equals);
        } else if (i + 1 < args.length) {
          value = args[++i];
        }
        if (value == null) {
          throw new IllegalArgumentException(flag + " needs a value");
        }
        switch (flag) {
          case "--ladder" -> address = value;
          case "--token-file" -> tokenFile = value;
          case "--matches" -> matches = number(flag, value);
          case "--concurrency" -> concurrency = number(flag, value);
          default -> throw new IllegalArgumentException("unknown argument " + flag);
        }
      }
      if (address.isEmpty() && tokenFile.isEmpty()) {
        return null;
      }
      if (address.isEmpty() || tokenFile.isEmpty()) {
        throw new IllegalArgumentException(
            "ladder mode needs both --ladder ADDRESS and --token-file FILE");
      }
      if (concurrency < 1 || concurrency > 16) {
        throw new IllegalArgumentException("--concurrency must be between 1 and 16");
      }
      return new Options(address, tokenFile, matches, concurrency);
    }

    private static String envOrEmpty(String name) {
      String value = System.getenv(name);
      return value == null ? "" : value;
    }

    private static int number(String flag, String value) {
      try {
        int n = Integer.parseInt(value);
        if (n >= 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(flag + " needs a non-negative integer, got " + value);
    }
  }

  /** Why one Seek stream ended before enough matches were assigned. */
  private static final class Lost extends Exception {
    final boolean heard;

    Lost(String why, boolean heard) {
      super(why);
      this.heard = heard;
    }
  }

  private final Options options;
  private final long seed;
  /** On the ladder's own channel: for assignments that name no other referee. */
  private final RefereeGrpc.RefereeStub referee;
  private final LadderGrpc.LadderBlockingStub ladder;
  private final ExecutorService playing = Executors.newCachedThreadPool();
  private final AtomicInteger failed = new AtomicInteger();
  /** Assignments received (only the Seek loop, on the main thread, touches it). */
  private int started;

  private LadderMode(Options options, long seed, ManagedChannel channel, String token) {
    this.options = options;
    this.seed = seed;
    // Matches go over the same connection; only Seek carries the token (a match is joined
    // with its ticket).
    this.referee = RefereeGrpc.newStub(channel);
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, "Bearer " + token);
    this.ladder = LadderGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /**
   * Seeks until the ladder refuses the bot or --matches were assigned, then waits for the
   * matches in progress. 0: every match was played to its end.
   */
  static int run(Options options, long seed) throws InterruptedException {
    String token;
    try {
      token = Files.readString(Path.of(options.tokenFile()), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      System.err.println("java-example: cannot read the token file: " + e);
      return 2;
    }
    if (token.isEmpty()) {
      System.err.println("java-example: the token file " + options.tokenFile() + " is empty");
      return 2;
    }
    ManagedChannel channel = KassenBot.openChannel(options.address(), false);
    try {
      return new LadderMode(options, seed, channel, token).seekAndPlay();
    } finally {
      channel.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
    }
  }

  private int seekAndPlay() throws InterruptedException {
    int code = 0;
    for (int attempt = 1; ; attempt++) {
      try {
        seekOnce();
        break; // enough matches were assigned
      } catch (StatusRuntimeException e) {
        Status status = e.getStatus();
        System.err.printf("java-example: the ladder refused the bot: %s (%s)%n",
            status.getDescription(), status.getCode());
        code = 1;
        break;
      } catch (Lost lost) {
        if (lost.heard) {
          attempt = 1; // the stream worked for a while: start the backoff over
        }
        long pause = backoffMs(attempt);
        System.err.printf("java-example: seek stream lost (%s); reconnecting in %d ms%n",
            lost.getMessage(), pause);
        Thread.sleep(pause);
      }
    }
    playing.shutdown();
    while (!playing.awaitTermination(1, TimeUnit.MINUTES)) {
      System.err.println("java-example: still playing...");
    }
    if (failed.get() > 0) {
      System.err.printf("java-example: %d of %d matches were not played to their end%n",
          failed.get(), started);
      code = 1;
    }
    return code;
  }

  /**
   * Reads one Seek stream, starting a match for each assignment. Returns once --matches were
   * assigned (the stream is cancelled then, so the ladder assigns nothing we would leave
   * unplayed); throws StatusRuntimeException when the ladder refuses the bot, Lost otherwise.
   */
  private void seekOnce() throws Lost {
    boolean heard = false;
    // Closing the context cancels the call.
    try (Context.CancellableContext call = Context.current().withCancellation()) {
      Context previous = call.attach();
      try {
        Iterator<SeekResponse> stream = ladder.seek(
            SeekRequest.newBuilder().setConcurrency(options.concurrency()).build());
        while (stream.hasNext()) {
          heard = true;
          if (handle(stream.next())) {
            return;
          }
        }
      } finally {
        call.detach(previous);
      }
    } catch (StatusRuntimeException e) {
      if (REFUSALS.contains(e.getStatus().getCode())) {
        throw e;
      }
      throw new Lost(e.getStatus().getCode() + ": " + e.getStatus().getDescription(), heard);
    }
    throw new Lost("the ladder ended the stream", heard);
  }

  /** Acts on one Seek message; true once --matches assignments were received. */
  private boolean handle(SeekResponse message) {
    switch (message.getKindCase()) {
      case SEEKING -> System.err.printf("java-example: seeking as bot %s (%d at once)%n",
          message.getSeeking().getBotId(), message.getSeeking().getConcurrency());
      case ASSIGNMENT -> {
        start(message.getAssignment());
        return options.matches() > 0 && started >= options.matches();
      }
      case MATCH_ENDED -> {
        // reason is the match's; seat_reason (and detail) what happened to our seat.
        MatchEnded ended = message.getMatchEnded();
        System.err.printf("java-example: match %s ended (%s), rank %d; our seat %d: %s %s%n",
            ended.getMatchId(), ended.getReason(), ended.getRank(), ended.getSeat(),
            ended.getSeatReason(), ended.getDetail());
      }
      default -> System.err.println("java-example: ignoring an empty message from the ladder");
    }
    return false;
  }

  /** Plays an assigned match on its own thread, with a fresh bot. */
  private void start(Assignment assignment) {
    started++;
    long matchSeed = seed + started;
    System.err.printf("java-example: assigned match %s, seat %d (%s %s)%n",
        assignment.getMatchId(), assignment.getSeat(), assignment.getSetup().getGame(),
        assignment.getSetup().getVariant());
    playing.execute(() -> {
      // A match that another referee hosts is played there, on a channel of its own (TLS checked
      // against the JDK's roots: this bot trusts no CA of its own for the ladder).
      String hostedBy = assignment.getRefereeAddress();
      ManagedChannel own =
          hostedBy.isEmpty() ? null : KassenBot.openChannel(hostedBy, assignment.getRefereeTls());
      if (own != null) {
        System.err.printf("java-example: match %s is hosted by the referee at %s%n",
            assignment.getMatchId(), hostedBy);
      }
      try {
        RefereeGrpc.RefereeStub stub = own == null ? referee : RefereeGrpc.newStub(own);
        if (new KassenBot(matchSeed).play(stub, assignment.getTicket()) != 0) {
          failed.incrementAndGet();
        }
      } catch (InterruptedException e) {
        failed.incrementAndGet();
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        System.err.println("java-example: match " + assignment.getMatchId() + ": " + e);
        failed.incrementAndGet();
      } finally {
        if (own != null) {
          own.shutdownNow();
        }
      }
    });
  }

  /** The pause before the attempt-th reconnect (1, 2, ...): between half and all of the ceiling. */
  private static long backoffMs(int attempt) {
    long ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_MS << Math.min(attempt - 1, 10));
    return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
  }
}
