// A minimal Kassen bot in TypeScript: place as many soldiers as the dice allow, else play randomly.
//
//   KASSEN_ADDRESS=127.0.0.1:50051 KASSEN_TICKET=... node dist/bot.js
//
// The ticket comes from the file named by KASSEN_TICKET_FILE if it is set (a bot the referee
// launches gets it that way: a pipe it can read once, so no other process finds the ticket in
// its environment), else from KASSEN_TICKET (for a bot started by hand). KASSEN_ADDRESS is
// host:port, or unix:PATH for a Unix socket (what a bot in a ladder's sandbox gets; grpc-js
// dials both).
//
// In ladder mode it keeps a Ladder/Seek stream open and plays every match the ladder assigns:
//
//   node dist/bot.js --ladder 127.0.0.1:50061 --token-file mybot.token [--matches N]
//
// The wire contract is ../../proto/kassen/v1/referee.proto and ladder.proto. They are loaded at
// run time with @grpc/proto-loader; the TypeScript types in gen/ are generated from the same files
// at build time by proto-loader-gen-types (see build.sh), so the compiler checks every field we
// touch.

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import type { ProtoGrpcType as LadderProto } from "./gen/ladder";
import type { ProtoGrpcType as RefereeProto } from "./gen/referee";
import type { Assignment__Output } from "./gen/kassen/v1/Assignment";
import type { DecisionRequest__Output } from "./gen/kassen/v1/DecisionRequest";
import type { MatchOver__Output } from "./gen/kassen/v1/MatchOver";
import type { PlayRequest } from "./gen/kassen/v1/PlayRequest";
import type { PlayResponse__Output } from "./gen/kassen/v1/PlayResponse";
import type { LadderClient } from "./gen/kassen/v1/Ladder";
import type { RefereeClient } from "./gen/kassen/v1/Referee";
import type { SeekResponse__Output } from "./gen/kassen/v1/SeekResponse";
import type { SeedReveal__Output } from "./gen/kassen/v1/SeedReveal";

const BOT_NAME = "typescript-example";

/** The exit code of a bot whose seat another connection took over (it did not finish its match). */
const EXIT_DISPLACED = 3;
const DISPLACED_LINE = "displaced: another connection took this seat over";

// The compiled script lives in examples/typescript/dist/, the protos in <repo>/proto/. A
// submitted copy of this folder has no repository around it: it carries a copy in proto/, made
// by the `prepare` step of kassen-bot.toml (second: in a checkout, that copy may be older).
const PROTO_ROOTS = [path.resolve(__dirname, "..", "..", "..", "proto"), path.resolve(__dirname, "..", "proto")];

// gRPC codes after which rejoining cannot help (wrong ticket, malformed messages...).
const FATAL = new Set<grpc.status>([
  grpc.status.PERMISSION_DENIED,
  grpc.status.INVALID_ARGUMENT,
  grpc.status.UNIMPLEMENTED,
  grpc.status.RESOURCE_EXHAUSTED,
]);

function log(message: string): void {
  process.stderr.write(`[${BOT_NAME}] ${message}\n`);
}

// ------------------------------------------------------------------------------- the strategy

/** mulberry32: a tiny seeded PRNG returning floats in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Pick an option index. PUT YOUR OWN LOGIC HERE.
 *
 * `request.kind` is e.g. "turn", "after_roll", "scout.destination"; `request.options[i].key` is
 * stable ("roll", "place:7:2", "place:7:2:daimyo", "tactic:scout", "stop"...; see
 * docs/games/rumble-nation.md); `request.observation.rumble_nation` is everything this seat sees.
 */
function choose(request: DecisionRequest__Output, random: () => number): number {
  // Keys "place:<castle>:<soldiers>[:daimyo]": place the most soldiers, ties to the higher castle.
  let best = -1;
  let bestSoldiers = -1;
  let bestCastle = -1;
  request.options.forEach((option, index) => {
    const parts = option.key.split(":");
    if (parts[0] !== "place" || parts.length < 3) return;
    const castle = Number(parts[1]);
    const soldiers = Number(parts[2]);
    if (soldiers > bestSoldiers || (soldiers === bestSoldiers && castle > bestCastle)) {
      [best, bestSoldiers, bestCastle] = [index, soldiers, castle];
    }
  });
  if (best >= 0) return best;
  // Anything else: a uniformly random option.
  return Math.floor(random() * request.options.length);
}

// ------------------------------------------------------------------------------- the protocol

/** What happened to one Play stream. */
type StreamOutcome =
  | { over: MatchOver__Output }
  | { displaced: boolean }
  | { dropped: string; fatal: boolean };

/** What survives a rejoin: the seat and the seed commitment from Joined. */
interface Seat {
  seat: number;
  seedCommitment: string;
}

/**
 * The revealed seed, checked: the commitment from Joined must be the lowercase hex SHA-256 of
 * "<seed>:<salt>". The seed is a uint64, so it stays the decimal string it arrived as
 * (longs: String); a Number would round seeds above 2^53.
 */
function seedText(reveal: SeedReveal__Output | null, commitment: string): string {
  if (!reveal) return "seed not revealed yet";
  const digest = createHash("sha256").update(`${reveal.seed}:${reveal.salt}`, "utf8").digest("hex");
  if (digest === commitment) return `seed ${reveal.seed} (commitment checked)`;
  log(`seed ${reveal.seed} does not match the commitment ${JSON.stringify(commitment)} from Joined`);
  return `seed ${reveal.seed} (commitment MISMATCH)`;
}

/** One Play stream: join, answer until MatchOver. Resolves with the result or why it dropped. */
async function playStream(
  client: RefereeClient,
  ticket: string,
  random: () => number,
  me: Seat,
): Promise<StreamOutcome> {
  const call = client.Play();
  const send = (message: PlayRequest): void => {
    call.write(message);
  };
  send({ join: { ticket, bot_name: BOT_NAME } });

  // The stale rule: within one stream, answer only a request newer than the last one answered.
  // uint64 ids arrive as decimal strings (longs: String); compare them as BigInt, send them back
  // unchanged so they round-trip exactly.
  let lastAnswered = -1n;
  let over: MatchOver__Output | undefined;
  let displaced = false;

  try {
    // Messages are handled strictly in order; writes may happen while we iterate.
    for await (const message of call as AsyncIterable<PlayResponse__Output>) {
      if (displaced) continue; // after the notice nothing is answered: the seat is not ours
      switch (message.message) {
        case "joined": {
          const joined = message.joined!;
          me.seat = joined.seat;
          me.seedCommitment = joined.setup?.seed_commitment ?? "";
          log(`joined match ${joined.match_id} as seat ${me.seat} (${joined.setup?.game} ${joined.setup?.variant})`);
          break;
        }
        case "decision": {
          const request = message.decision!;
          if (BigInt(request.request_id) <= lastAnswered) {
            log(`ignoring stale request ${request.request_id} (last answered ${lastAnswered})`);
            break;
          }
          lastAnswered = BigInt(request.request_id);
          const started = process.hrtime.bigint();
          const index = choose(request, random);
          const thinkUs = (process.hrtime.bigint() - started) / 1000n;
          send({
            answer: {
              request_id: request.request_id,
              option_index: index,
              think_time_us: thinkUs.toString(),
            },
          });
          break;
        }
        case "ping":
          send({ pong: { nonce: message.ping!.nonce } }); // echo the uint64 string as is
          break;
        case "notice":
          if (message.notice!.code === "displaced") {
            // Another stream joined with our ticket and the referee ends this one: stop here
            // (cancelling ends the loop below at once) and do not rejoin.
            displaced = true;
            call.cancel();
            break;
          }
          log(`notice ${message.notice!.code}: ${message.notice!.message}`);
          break;
        case "events":
          break; // events also arrive with each DecisionRequest; a smarter bot would read them
        case "match_over": {
          over = message.match_over!;
          const mine = over.seats.find((s) => s.seat === me.seat);
          const seed = seedText(over.seed_reveal, me.seedCommitment);
          console.log(
            `match over: seat ${me.seat} rank ${mine?.rank ?? "?"} score ${mine?.score ?? "?"}, ${seed}`,
          );
          call.end(); // close our sending side; the referee then ends the stream
          break;
        }
        default:
          log(`ignoring unknown message ${JSON.stringify(message)}`);
      }
    }
  } catch (error) {
    if (over) return { over }; // the result is in; how the stream closed no longer matters
    if (displaced) return { displaced }; // our own cancel after the notice
    const err = error as grpc.ServiceError;
    const code = grpc.status[err.code] ?? String(err.code);
    return { dropped: `${code}: ${err.details ?? err.message}`, fatal: FATAL.has(err.code) };
  }
  if (over) return { over };
  if (displaced) return { displaced };
  return { dropped: "the stream ended before the match did", fatal: false };
}

/** How one match ended for this bot. */
type MatchOutcome = "over" | "displaced" | { failed: string };

/**
 * Play one match with its ticket and a fresh seat: one stream, and if it drops before MatchOver,
 * one rejoin with the same ticket (the referee re-sends the pending request with the same
 * request_id; the stale rule is per stream). Never after "displaced": another connection plays
 * the seat now, and a rejoin would take it back.
 */
async function playMatch(client: RefereeClient, ticket: string, random: () => number): Promise<MatchOutcome> {
  const me: Seat = { seat: -1, seedCommitment: "" };
  for (let attempt = 0; ; attempt++) {
    const outcome = await playStream(client, ticket, random, me);
    if ("over" in outcome) return "over";
    if ("displaced" in outcome) return "displaced";
    if (outcome.fatal || attempt === 1) {
      return { failed: `${attempt === 1 ? "rejoin failed" : "refused"}: ${outcome.dropped}` };
    }
    log(`stream dropped (${outcome.dropped}); rejoining`);
    await sleep(100);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// -------------------------------------------------------------------------------- ladder mode

/** Seek errors that no retry can fix: no or an unknown token, a paused or revoked bot, a bad
 * request, or a newer Seek stream of the same bot (FAILED_PRECONDITION). */
const REFUSALS = new Set<grpc.status>([
  grpc.status.UNAUTHENTICATED,
  grpc.status.PERMISSION_DENIED,
  grpc.status.INVALID_ARGUMENT,
  grpc.status.FAILED_PRECONDITION,
]);
/** The pause before the n-th reconnect doubles from this up to SEEK_BACKOFF_CAP_MS (jittered). */
const SEEK_BACKOFF_MS = 250;
const SEEK_BACKOFF_CAP_MS = 10_000;

interface LadderOptions {
  address: string;
  tokenFile: string;
  /** Stop seeking after this many assignments (0: never). */
  matches: number;
  concurrency: number;
}

class UsageError extends Error {}

/** The ladder-mode options (flags, else KASSEN_LADDER_ADDRESS / KASSEN_TOKEN_FILE); null: one match. */
function ladderOptions(argv: string[]): LadderOptions | null {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        ladder: { type: "string" },
        "token-file": { type: "string" },
        matches: { type: "string", default: "0" },
        concurrency: { type: "string", default: "1" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const address = values.ladder ?? process.env.KASSEN_LADDER_ADDRESS ?? "";
  const tokenFile = values["token-file"] ?? process.env.KASSEN_TOKEN_FILE ?? "";
  if (!address && !tokenFile) return null;
  if (!address || !tokenFile) throw new UsageError("ladder mode needs both --ladder ADDRESS and --token-file FILE");
  const matches = Number(values.matches);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(matches) || matches < 0) throw new UsageError("--matches must be a non-negative integer");
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
    throw new UsageError("--concurrency must be an integer from 1 to 16");
  }
  return { address, tokenFile, matches, concurrency };
}

/** The pause before the attempt-th reconnect (1, 2, ...): between half and all of the ceiling. */
function backoffMs(attempt: number): number {
  const ceiling = Math.min(SEEK_BACKOFF_CAP_MS, SEEK_BACKOFF_MS * 2 ** (attempt - 1));
  return ceiling * (0.5 + 0.5 * Math.random());
}

/** How one Seek stream ended. */
type SeekOutcome = { enough: true } | { error: grpc.ServiceError | string; heard: boolean };

/** What the Seek loop shares with the matches it starts. */
class LadderRun {
  started = 0;
  failed = 0;
  readonly playing = new Set<Promise<void>>();

  constructor(
    readonly options: LadderOptions,
    /** On the ladder's own channel: for assignments that name no other referee. */
    readonly referee: RefereeClient,
    readonly seed: number,
    /** A client of its own to the referee at an address (TLS or not), for one match. */
    readonly openReferee: (address: string, tls: boolean) => RefereeClient,
  ) {}

  /** Play an assigned match concurrently with everything else, with a fresh seat and RNG. */
  start(assignment: Assignment__Output): void {
    this.started += 1;
    const { match_id: matchId, seat, setup, referee_address: hostedBy } = assignment;
    log(`assigned match ${matchId}, seat ${seat} (${setup?.game} ${setup?.variant})`);
    const random = seededRandom(this.seed + this.started);
    // A match that another referee hosts is played there; empty: on the ladder's address.
    const client = hostedBy ? this.openReferee(hostedBy, assignment.referee_tls) : this.referee;
    if (hostedBy) log(`match ${matchId} is hosted by the referee at ${hostedBy}`);
    const game = playMatch(client, assignment.ticket, random)
      .then(
        (outcome) => {
          if (outcome === "over") return;
          log(`match ${matchId}: ${outcome === "displaced" ? DISPLACED_LINE : outcome.failed}`);
          this.failed += 1;
        },
        (error: unknown) => {
          log(`match ${matchId}: ${error instanceof Error ? error.message : String(error)}`);
          this.failed += 1;
        },
      )
      .finally(() => {
        if (client !== this.referee) client.close();
      });
    this.playing.add(game);
    void game.finally(() => this.playing.delete(game));
  }

  /** Read one Seek stream, starting a match for each assignment, until it ends or enough were given. */
  async seek(ladder: LadderClient, metadata: grpc.Metadata): Promise<SeekOutcome> {
    const call = ladder.Seek({ concurrency: this.options.concurrency }, metadata);
    let enough = false;
    let heard = false;
    try {
      for await (const message of call as AsyncIterable<SeekResponse__Output>) {
        if (enough) continue; // cancelled: the loop ends with the CANCELLED error below
        heard = true;
        switch (message.kind) {
          case "seeking":
            log(`seeking as bot ${message.seeking!.bot_id} (${message.seeking!.concurrency} at once)`);
            break;
          case "assignment":
            this.start(message.assignment!);
            if (this.options.matches > 0 && this.started >= this.options.matches) {
              // Close the stream at once, so the ladder assigns nothing we would leave unplayed.
              enough = true;
              call.cancel();
            }
            break;
          case "match_ended": {
            // reason is the match's; seat_reason (and detail) what happened to our seat.
            const ended = message.match_ended!;
            log(
              `match ${ended.match_id} ended (${ended.reason}), rank ${ended.rank}; ` +
                `our seat ${ended.seat}: ${ended.seat_reason} ${ended.detail}`,
            );
            break;
          }
        }
      }
    } catch (error) {
      if (enough) return { enough };
      return { error: error as grpc.ServiceError, heard };
    }
    if (enough) return { enough };
    return { error: "the ladder ended the stream", heard };
  }
}

/** Seek until the ladder refuses the bot or --matches were assigned, then finish the matches. */
async function runLadder(options: LadderOptions, proto: RefereeProto & LadderProto, seed: number): Promise<number> {
  let token: string;
  try {
    token = readFileSync(options.tokenFile, "utf8").trim();
  } catch (error) {
    process.stderr.write(`error: cannot read the token file: ${(error as Error).message}\n`);
    return 2;
  }
  if (!token) {
    process.stderr.write(`error: the token file ${options.tokenFile} is empty\n`);
    return 2;
  }
  const ladder = new proto.kassen.v1.Ladder(options.address, grpc.credentials.createInsecure());
  // Matches are played on the same connection; only Seek carries the token (a match is joined
  // with its ticket).
  const referee = new proto.kassen.v1.Referee(options.address, grpc.credentials.createInsecure(), {
    channelOverride: ladder.getChannel() as grpc.Channel,
  });
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${token}`);

  // This bot trusts no CA of its own for the ladder, so a TLS referee is checked against Node's
  // root certificates.
  const run = new LadderRun(options, referee, seed, (address, tls) => {
    const credentials = tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure();
    return new proto.kassen.v1.Referee(address, credentials);
  });
  let code = 0;
  try {
    for (let attempt = 1; ; attempt++) {
      const outcome = await run.seek(ladder, metadata);
      if ("enough" in outcome) break;
      const { error, heard } = outcome;
      if (typeof error !== "string" && REFUSALS.has(error.code)) {
        log(`the ladder refused the bot: ${error.details} (${grpc.status[error.code]})`);
        code = 1;
        break;
      }
      if (heard) attempt = 1; // the stream worked for a while: start the backoff over
      const pause = backoffMs(attempt);
      const why = typeof error === "string" ? error : `${grpc.status[error.code]}: ${error.details}`;
      log(`seek stream lost (${why}); reconnecting in ${Math.round(pause)} ms`);
      await sleep(pause);
    }
    while (run.playing.size > 0) await Promise.all(run.playing);
  } finally {
    referee.close();
    ladder.close();
  }
  if (run.failed > 0) {
    log(`${run.failed} of ${run.started} matches were not played to their end`);
    code = 1;
  }
  return code;
}

// ----------------------------------------------------------------------------------- the bot

/** The seat's ticket: from the file named by KASSEN_TICKET_FILE if it is set (read once: a
 * launched bot's pipe holds nothing more afterwards), else from KASSEN_TICKET. */
function seatTicket(): string | { error: string } {
  const file = process.env.KASSEN_TICKET_FILE ?? "";
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? String(err);
      return { error: `cannot read the seat ticket from KASSEN_TICKET_FILE=${file}: ${reason}` };
    }
    const ticket = text.trim();
    return ticket || { error: `KASSEN_TICKET_FILE=${file} holds no seat ticket` };
  }
  const ticket = (process.env.KASSEN_TICKET ?? "").trim();
  return (
    ticket || {
      error:
        "no seat ticket: set KASSEN_TICKET_FILE (a file holding it; a bot the referee launches has it) or KASSEN_TICKET",
    }
  );
}

async function main(): Promise<number> {
  const seed = Number(process.env.KASSEN_SEED || "1");
  if (!Number.isInteger(seed)) {
    process.stderr.write(`error: KASSEN_SEED must be an integer, got ${process.env.KASSEN_SEED}\n`);
    return 2;
  }
  let ladder: LadderOptions | null;
  try {
    ladder = ladderOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return 2;
  }

  // Load the service definitions from the .proto files at run time.
  const protoRoot = PROTO_ROOTS.find((folder) => existsSync(path.join(folder, "kassen", "v1", "referee.proto")));
  if (protoRoot === undefined) {
    process.stderr.write(`error: no kassen/v1/referee.proto in ${PROTO_ROOTS.join(" or ")}\n`);
    return 2;
  }
  const definition = protoLoader.loadSync(["kassen/v1/referee.proto", "kassen/v1/ladder.proto"], {
    includeDirs: [protoRoot],
    keepCase: true,
    longs: String, // uint64 as decimal strings: exact round trip of request_id and nonce
    enums: String,
    defaults: true,
    oneofs: true, // sets `message` to the name of the field of the oneof that is present
  });
  const proto = grpc.loadPackageDefinition(definition) as unknown as RefereeProto & LadderProto;
  if (ladder) return runLadder(ladder, proto, seed);

  const address = process.env.KASSEN_ADDRESS ?? "";
  if (!address) {
    process.stderr.write(
      "error: set KASSEN_ADDRESS (host:port or unix:PATH) and the seat's ticket (KASSEN_TICKET_FILE or KASSEN_TICKET), or use ladder mode (--ladder ADDRESS --token-file FILE)\n",
    );
    return 2;
  }
  const ticket = seatTicket();
  if (typeof ticket !== "string") {
    process.stderr.write(`error: ${ticket.error}\n`);
    return 2;
  }
  const client = new proto.kassen.v1.Referee(address, grpc.credentials.createInsecure());
  try {
    const outcome = await playMatch(client, ticket, seededRandom(seed));
    if (outcome === "over") return 0;
    if (outcome === "displaced") {
      log(DISPLACED_LINE);
      return EXIT_DISPLACED;
    }
    process.stderr.write(`error: ${outcome.failed}\n`);
    return 1;
  } finally {
    client.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
