#!/usr/bin/env bash
# Run the built TypeScript example bot (build it first with build.sh). The environment
# (KASSEN_ADDRESS, KASSEN_TICKET, optional KASSEN_SEED) is passed through.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec node "$here/dist/bot.js" "$@"
