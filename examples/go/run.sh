#!/usr/bin/env bash
# Run the built Go example bot (build it first with build.sh). The environment, including
# KASSEN_ADDRESS, KASSEN_TICKET and KASSEN_SEED, passes through.
set -euo pipefail
bot="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bin/bot"
if [[ ! -x $bot ]]; then
  echo "run.sh: $bot is missing; run examples/go/build.sh first" >&2
  exit 1
fi
exec "$bot" "$@"
