#!/usr/bin/env bash
# Runs the built bot (examples/rust/build.sh first). KASSEN_ADDRESS, KASSEN_TICKET_FILE or
# KASSEN_TICKET, and KASSEN_SEED are passed through the environment, and the descriptor a
# launching referee names in KASSEN_TICKET_FILE (/dev/fd/3) stays open across exec. Honours
# CARGO_TARGET_DIR, as cargo does.
set -euo pipefail
target="${CARGO_TARGET_DIR:-$(dirname "${BASH_SOURCE[0]}")/target}"
exec "$target/release/kassen-rust-example" "$@"
