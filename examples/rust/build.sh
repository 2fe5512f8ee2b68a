#!/usr/bin/env bash
# Builds the Rust example bot: build.rs generates the kassen.v1 client from ../../proto with
# protoc, then cargo compiles it. Incremental: a second run reuses target/ and does next to nothing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# prost-build runs protoc: take $PROTOC if set, else the one on PATH (Debian: protobuf-compiler).
if [[ -z "${PROTOC:-}" ]]; then
    if ! PROTOC="$(command -v protoc)"; then
        echo "protoc not found: install protobuf-compiler (apt) or set PROTOC" >&2
        exit 1
    fi
    export PROTOC
fi

cargo build --release --locked
