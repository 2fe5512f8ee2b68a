#!/usr/bin/env bash
# Runs the built bot (examples/rust/build.sh first). KASSEN_ADDRESS, KASSEN_TICKET and
# KASSEN_SEED are passed through the environment. Honours CARGO_TARGET_DIR, as cargo does.
set -euo pipefail
target="${CARGO_TARGET_DIR:-$(dirname "${BASH_SOURCE[0]}")/target}"
exec "$target/release/kassen-rust-example" "$@"
