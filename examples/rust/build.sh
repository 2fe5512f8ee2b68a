#!/usr/bin/env bash
# Builds the Rust example bot: build.rs generates the kassen.v1 client from ../../proto with
# protoc, then cargo compiles it. Incremental: a second run reuses target/ and does next to nothing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

# prost-build runs $PROTOC: keep it if set, else protoc on PATH (Debian: protobuf-compiler), else
# ../../tools/protoc (the compiler that Python's grpcio-tools ships).
export PROTOC="${PROTOC:-$(command -v protoc || echo "$here/../../tools/protoc")}"

cargo build --release --locked
