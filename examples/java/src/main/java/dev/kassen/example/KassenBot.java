package dev.kassen.example;

import dev.kassen.v1.Answer;
import dev.kassen.v1.DecisionRequest;
import dev.kassen.v1.Join;
import dev.kassen.v1.MatchOver;
import dev.kassen.v1.Option;
import dev.kassen.v1.PlayRequest;
import dev.kassen.v1.PlayResponse;
import dev.kassen.v1.Pong;
import dev.kassen.v1.RefereeGrpc;
import dev.kassen.v1.SeatResult;
import dev.kassen.v1.SeedReveal;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A minimal Kassen bot: joins one seat over gRPC, places as many soldiers as the dice allow,
 * otherwise answers at random, and rejoins once if its stream drops. If another connection takes
 * its seat over (a "displaced" notice) it stops without rejoining and exits with code 3.
 *
 * <p>Environment: KASSEN_ADDRESS (host:port, or unix:PATH for a Unix socket, as a bot in a
 * ladder's sandbox gets; plaintext gRPC); the seat ticket, read from the file named by
 * KASSEN_TICKET_FILE if it is set (a bot the referee launches gets it that way: a pipe it can
 * read once, so no other process finds the ticket in its environment), else from KASSEN_TICKET
 * (for a bot started by hand); optional KASSEN_SEED (seeds the random choices, default 1).
 *
 * <p>Ladder mode ({@link LadderMode}): {@code --ladder ADDRESS --token-file FILE [--matches N]
 * [--concurrency N]} (or KASSEN_LADDER_ADDRESS and KASSEN_TOKEN_FILE) keeps a Ladder/Seek stream
 * open and plays every match the ladder assigns.
 */
public final class KassenBot {
  private static final String BOT_NAME = "java-example";
  /** The exit code of a bot whose seat another connection took over: it did not finish. */
  private static final int EXIT_DISPLACED = 3;

  private final Random rng;
  /** This bot's seat, learnt from Joined (or from the first DecisionRequest). */
  private volatile int seat = -1;
  /** The seed commitment from Joined, checked against the seed MatchOver reveals. */
  private volatile String seedCommitment = "";

  KassenBot(long seed) {
    this.rng = new Random(seed);
  }

  public static void main(String[] args) throws InterruptedException {
    String seedText = System.getenv("KASSEN_SEED");
    long seed = seedText == null || seedText.isEmpty() ? 1 : Long.parseLong(seedText.trim());
    LadderMode.Options ladder;
    try {
      ladder = LadderMode.Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("java-example: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (ladder != null) {
      System.exit(LadderMode.run(ladder, seed));
    }

    String address = System.getenv("KASSEN_ADDRESS");
    if (address == null || address.isEmpty()) {
      System.err.println("java-example: set KASSEN_ADDRESS (host:port or unix:PATH) and the"
          + " seat's ticket (KASSEN_TICKET_FILE or KASSEN_TICKET), or use ladder mode"
          + " (--ladder ADDRESS --token-file FILE)");
      System.exit(2);
    }
    String ticket;
    try {
      ticket = seatTicket();
    } catch (IllegalStateException e) {
      System.err.println("java-example: " + e.getMessage());
      System.exit(2);
      return;
    }

    ManagedChannel channel = openChannel(address, false);
    KassenBot bot = new KassenBot(seed);
    int code = bot.play(RefereeGrpc.newStub(channel), ticket);
    channel.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
    System.exit(code);
  }

  /**
   * Netty's loggers that warn about what a Unix socket in a sandbox lacks (held: the logging
   * framework forgets the level of a logger nobody references).
   */
  private static final List<Logger> UNIX_SOCKET_NOISE =
      List.of(
          // gRPC asks every connection for TCP keepalive: "Unknown channel option 'SO_KEEPALIVE'".
          Logger.getLogger("io.grpc.netty.shaded.io.netty.bootstrap.Bootstrap"),
          // A sandbox has no network interface: "Failed to find a usable hardware address".
          Logger.getLogger("io.grpc.netty.shaded.io.netty.util.internal.MacAddressUtil"));

  /**
   * A channel to {@code address}: host:port, or unix:PATH (grpc-java's "unix" name resolver and
   * Netty's epoll transport, both in grpc-netty-shaded, dial the socket). Plaintext, or with
   * {@code tls} TLS checked against the JDK's trusted roots (a ladder's referee may speak TLS).
   */
  static ManagedChannel openChannel(String address, boolean tls) {
    if (address.startsWith("unix:")) {
      UNIX_SOCKET_NOISE.forEach(logger -> logger.setLevel(Level.SEVERE));
    }
    ChannelCredentials credentials =
        tls ? TlsChannelCredentials.create() : InsecureChannelCredentials.create();
    return Grpc.newChannelBuilder(address, credentials).build();
  }

  /**
   * The seat's ticket: from the file named by KASSEN_TICKET_FILE if it is set (read once: a
   * launched bot's pipe holds nothing more afterwards), else from KASSEN_TICKET.
   *
   * @throws IllegalStateException with one line saying where it looked
   */
  static String seatTicket() {
    String file = System.getenv("KASSEN_TICKET_FILE");
    if (file != null && !file.isEmpty()) {
      String text;
      try {
        text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      } catch (IOException e) {
        String reason = e instanceof NoSuchFileException ? "no such file" : e.getMessage();
        throw new IllegalStateException(
            "cannot read the seat ticket from KASSEN_TICKET_FILE=" + file + ": " + reason);
      }
      String ticket = text.strip();
      if (ticket.isEmpty()) {
        throw new IllegalStateException("KASSEN_TICKET_FILE=" + file + " holds no seat ticket");
      }
      return ticket;
    }
    String ticket = System.getenv("KASSEN_TICKET");
    if (ticket == null || ticket.strip().isEmpty()) {
      throw new IllegalStateException("no seat ticket: set KASSEN_TICKET_FILE (a file holding it;"
          + " a bot the referee launches has it) or KASSEN_TICKET");
    }
    return ticket.strip();
  }

  /**
   * Plays the seat to the end: one stream, and one rejoin if it ends before MatchOver, but none
   * after a "displaced" notice (a rejoin would take the seat back from its replacement).
   * Returns 0 once the result line is printed, {@link #EXIT_DISPLACED} or 1.
   */
  int play(RefereeGrpc.RefereeStub stub, String ticket) throws InterruptedException {
    for (int attempt = 0; attempt < 2; attempt++) {
      Seat stream = new Seat();
      // The referee sends the pending request again after a rejoin (same request_id).
      stream.requests = stub.play(stream);
      stream.send(PlayRequest.newBuilder()
          .setJoin(Join.newBuilder().setTicket(ticket).setBotName(BOT_NAME))
          .build());
      stream.done.await();
      if (stream.over != null) {
        System.out.println(resultLine(stream.over));
        return 0;
      }
      if (stream.displaced) {
        System.err.println("java-example: displaced: another connection took this seat over");
        return EXIT_DISPLACED;
      }
      String why = "the stream ended before the match did";
      if (stream.error != null) {
        Status status = Status.fromThrowable(stream.error);
        why = status.getCode() + ": " + status.getDescription();
      }
      if (attempt == 0) {
        System.err.println("java-example: " + why + "; rejoining");
        Thread.sleep(100);
      } else {
        System.err.println("java-example: gave up after one rejoin (" + why + ")");
      }
    }
    return 1;
  }

  /**
   * The heuristic: among "place:<castle>:<soldiers>[:daimyo]" options take the one placing the
   * most soldiers (ties to the higher castle); without such options pick uniformly at random.
   * Put your own logic here (request.getObservation() holds everything the seat may see).
   */
  int choose(DecisionRequest request) {
    List<Option> options = request.getOptionsList();
    int best = -1;
    int bestSoldiers = -1;
    int bestCastle = -1;
    for (int i = 0; i < options.size(); i++) {
      String[] parts = options.get(i).getKey().split(":");
      if (!parts[0].equals("place") || parts.length < 3) {
        continue;
      }
      int castle = Integer.parseInt(parts[1]);
      int soldiers = Integer.parseInt(parts[2]);
      if (soldiers > bestSoldiers || (soldiers == bestSoldiers && castle > bestCastle)) {
        best = i;
        bestSoldiers = soldiers;
        bestCastle = castle;
      }
    }
    if (best >= 0) {
      return best;
    }
    return options.isEmpty() ? 0 : rng.nextInt(options.size());
  }

  private String resultLine(MatchOver over) {
    String seed = seedText(over);
    for (SeatResult result : over.getSeatsList()) {
      if (result.getSeat() == seat) {
        return String.format("match over: seat %d rank %d score %d%s, %s",
            seat, result.getRank(), result.getScore(),
            result.getForfeited() ? " (forfeited: " + result.getReason() + ")" : "", seed);
      }
    }
    return "match over: seat " + seat + " (no result for this seat; " + over.getReason() + "), "
        + seed;
  }

  /**
   * The revealed seed, checked: the commitment from Joined must be the lowercase hex SHA-256 of
   * "seed:salt". The seed is a uint64, so it is printed unsigned (a Java long is signed).
   */
  private String seedText(MatchOver over) {
    if (!over.hasSeedReveal()) {
      return "seed not revealed yet";
    }
    SeedReveal reveal = over.getSeedReveal();
    String seedText = Long.toUnsignedString(reveal.getSeed());
    String digest;
    try {
      digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest((seedText + ":" + reveal.getSalt()).getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    if (digest.equals(seedCommitment)) {
      return "seed " + seedText + " (commitment checked)";
    }
    System.err.printf("java-example: seed %s does not match the commitment '%s' from Joined%n",
        seedText, seedCommitment);
    return "seed " + seedText + " (commitment MISMATCH)";
  }

  /** One Play stream: receives the referee's messages and answers them. */
  private final class Seat implements StreamObserver<PlayResponse> {
    final CountDownLatch done = new CountDownLatch(1);
    volatile StreamObserver<PlayRequest> requests;
    volatile MatchOver over;
    volatile Throwable error;
    /** Another stream joined with our ticket: this one ends, and the bot must not rejoin. */
    volatile boolean displaced;
    /** The stale rule: within one stream, answer only requests newer than the last answered. */
    private long lastAnswered;

    /** A StreamObserver is not thread-safe: the Join (main thread) and answers go through here. */
    synchronized void send(PlayRequest message) {
      requests.onNext(message);
    }

    @Override
    public void onNext(PlayResponse message) {
      if (displaced) {
        return; // after the notice nothing is answered: the seat is not ours any more
      }
      switch (message.getMessageCase()) {
        case JOINED -> {
          seat = message.getJoined().getSeat();
          seedCommitment = message.getJoined().getSetup().getSeedCommitment();
          System.err.printf("java-example: joined %s as seat %d%n",
              message.getJoined().getMatchId(), seat);
        }
        case DECISION -> answer(message.getDecision());
        case PING -> send(PlayRequest.newBuilder()
            .setPong(Pong.newBuilder().setNonce(message.getPing().getNonce()))
            .build());
        case NOTICE -> {
          if (message.getNotice().getCode().equals("displaced")) {
            // The referee ends this stream next; cancel it now and stop.
            displaced = true;
            synchronized (this) {
              ((ClientCallStreamObserver<PlayRequest>) requests)
                  .cancel("displaced by another connection", null);
            }
            done.countDown();
          } else {
            System.err.printf("java-example: notice %s: %s%n",
                message.getNotice().getCode(), message.getNotice().getMessage());
          }
        }
        case EVENTS -> { } // public events between decisions: this bot does not track them
        case MATCH_OVER -> {
          over = message.getMatchOver();
          synchronized (this) {
            requests.onCompleted(); // close our sending side; the referee ends the stream
          }
          done.countDown();
        }
        default -> System.err.println("java-example: unknown message " + message.getMessageCase());
      }
    }

    private void answer(DecisionRequest request) {
      if (request.getRequestId() <= lastAnswered) {
        System.err.printf("java-example: ignoring stale request %d (answered %d)%n",
            request.getRequestId(), lastAnswered);
        return;
      }
      lastAnswered = request.getRequestId();
      if (seat < 0) {
        seat = request.getSeat();
      }
      long started = System.nanoTime();
      int index = choose(request);
      long thinkUs = (System.nanoTime() - started) / 1_000;
      send(PlayRequest.newBuilder()
          .setAnswer(Answer.newBuilder()
              .setRequestId(request.getRequestId())
              .setOptionIndex(index)
              .setThinkTimeUs(thinkUs))
          .build());
    }

    @Override
    public void onError(Throwable t) {
      error = t;
      done.countDown();
    }

    @Override
    public void onCompleted() {
      done.countDown();
    }
  }
}
