#!/usr/bin/env bash
# Build the TypeScript example bot: install pinned npm packages (only when needed), generate
# TypeScript types from ../../proto (only when the protos changed), compile with tsc (incremental).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
proto="$(cd "$here/../../proto" && pwd)"
cd "$here"

# 1. Dependencies: `npm ci` when node_modules is missing or package-lock.json changed.
lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1)"
stamp="node_modules/.kassen-lock.sha256"
if [[ ! -d node_modules || "$(cat "$stamp" 2>/dev/null || true)" != "$lock_sum" ]]; then
  # --ignore-scripts: no dependency needs an install script (protobufjs' only checks its CLI).
  npm ci --ignore-scripts --no-audit --no-fund
  echo "$lock_sum" > "$stamp"
fi

# 2. Types for the messages and the Referee and Ladder clients, from the .proto files (same
#    options as the run-time loader in bot.ts). Regenerated only when a .proto or the generator
#    changed.
proto_sum="$(cat "$proto"/kassen/v1/*.proto "$stamp" | sha256sum | cut -d' ' -f1)"
if [[ ! -f gen/referee.ts || ! -f gen/ladder.ts || "$(cat gen/.proto.sha256 2>/dev/null || true)" != "$proto_sum" ]]; then
  rm -rf gen
  npx proto-loader-gen-types --keepCase --longs=String --enums=String --defaults --oneofs \
    --grpcLib=@grpc/grpc-js -I "$proto" -O gen kassen/v1/referee.proto kassen/v1/ladder.proto > /dev/null
  echo "$proto_sum" > gen/.proto.sha256
fi

# 3. Compile bot.ts -> dist/bot.js (--build: skipped when nothing changed).
npx tsc --build
