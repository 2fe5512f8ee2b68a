#!/usr/bin/env bash
# Runs the built bot (examples/rust/build.sh first). KASSEN_ADDRESS, KASSEN_TICKET and
# KASSEN_SEED are passed through the environment.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/target/release/kassen-rust-example" "$@"
