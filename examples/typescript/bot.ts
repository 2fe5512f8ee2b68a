// A minimal Kassen bot in TypeScript: place as many soldiers as the dice allow, else play randomly.
//
//   KASSEN_ADDRESS=127.0.0.1:50051 KASSEN_TICKET=... node dist/bot.js
//
// The wire contract is ../../proto/kassen/v1/referee.proto. It is loaded at run time with
// @grpc/proto-loader; the TypeScript types in gen/ are generated from the same file at build time
// by proto-loader-gen-types (see build.sh), so the compiler checks every field we touch.

import { createHash } from "node:crypto";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import type { ProtoGrpcType } from "./gen/referee";
import type { DecisionRequest__Output } from "./gen/kassen/v1/DecisionRequest";
import type { MatchOver__Output } from "./gen/kassen/v1/MatchOver";
import type { PlayRequest } from "./gen/kassen/v1/PlayRequest";
import type { PlayResponse__Output } from "./gen/kassen/v1/PlayResponse";
import type { RefereeClient } from "./gen/kassen/v1/Referee";
import type { SeedReveal__Output } from "./gen/kassen/v1/SeedReveal";

const BOT_NAME = "typescript-example";

/** The exit code of a bot whose seat another connection took over (it did not finish its match). */
const EXIT_DISPLACED = 3;
const DISPLACED_LINE = "displaced: another connection took this seat over";

// The compiled script lives in examples/typescript/dist/, the protos in <repo>/proto/.
const PROTO_ROOT = path.resolve(__dirname, "..", "..", "..", "proto");

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

async function main(): Promise<number> {
  const address = process.env.KASSEN_ADDRESS ?? "";
  const ticket = process.env.KASSEN_TICKET ?? "";
  if (!address || !ticket) {
    process.stderr.write("error: set KASSEN_ADDRESS (host:port) and KASSEN_TICKET\n");
    return 2;
  }
  const seed = Number(process.env.KASSEN_SEED || "1");
  if (!Number.isInteger(seed)) {
    process.stderr.write(`error: KASSEN_SEED must be an integer, got ${process.env.KASSEN_SEED}\n`);
    return 2;
  }
  const random = seededRandom(seed);

  // Load the service definition from the .proto files at run time.
  const definition = protoLoader.loadSync("kassen/v1/referee.proto", {
    includeDirs: [PROTO_ROOT],
    keepCase: true,
    longs: String, // uint64 as decimal strings: exact round trip of request_id and nonce
    enums: String,
    defaults: true,
    oneofs: true, // sets `message` to the name of the field of the oneof that is present
  });
  const proto = grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType;
  const client = new proto.kassen.v1.Referee(address, grpc.credentials.createInsecure());

  const me: Seat = { seat: -1, seedCommitment: "" };
  try {
    // One stream, and if it drops before MatchOver, one rejoin with the same ticket: the referee
    // re-sends the pending request with the same request_id (the stale rule is per stream).
    // Never after "displaced": another connection plays the seat now, a rejoin would take it back.
    for (let attempt = 0; attempt < 2; attempt++) {
      const outcome = await playStream(client, ticket, random, me);
      if ("over" in outcome) return 0;
      if ("displaced" in outcome) {
        log(DISPLACED_LINE);
        return EXIT_DISPLACED;
      }
      if (outcome.fatal || attempt === 1) {
        process.stderr.write(`error: ${attempt === 1 ? "rejoin failed" : "refused"}: ${outcome.dropped}\n`);
        return 1;
      }
      log(`stream dropped (${outcome.dropped}); rejoining`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return 1; // not reached
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
