#!/usr/bin/env bash
# Run the built TypeScript example bot (build it first with build.sh). The environment
# (KASSEN_ADDRESS, KASSEN_TICKET_FILE or KASSEN_TICKET, optional KASSEN_SEED) is passed through,
# and so is the descriptor a launching referee names in KASSEN_TICKET_FILE (/dev/fd/3): exec
# keeps it open for the bot.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec node "$here/dist/bot.js" "$@"
