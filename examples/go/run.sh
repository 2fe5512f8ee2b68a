#!/usr/bin/env bash
# Run the built Go example bot (build it first with build.sh). The environment (KASSEN_ADDRESS,
# KASSEN_TICKET_FILE or KASSEN_TICKET, KASSEN_SEED) passes through, and so does the descriptor
# a launching referee names in KASSEN_TICKET_FILE (/dev/fd/3): exec keeps it open for the bot.
set -euo pipefail
bot="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bin/bot"
if [[ ! -x $bot ]]; then
  echo "run.sh: $bot is missing; run examples/go/build.sh first" >&2
  exit 1
fi
exec "$bot" "$@"
