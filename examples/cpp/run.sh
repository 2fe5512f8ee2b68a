#!/usr/bin/env bash
# Run the built C++ example bot; KASSEN_ADDRESS / KASSEN_TICKET_FILE or KASSEN_TICKET /
# KASSEN_SEED pass through, and the descriptor a launching referee names in KASSEN_TICKET_FILE
# (/dev/fd/3) stays open across exec.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$here/build/kassen_bot"
if [[ ! -x "$bin" ]]; then
  echo "cpp-example: $bin not built; run $here/build.sh first" >&2
  exit 1
fi
exec "$bin" "$@"
