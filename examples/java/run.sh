#!/usr/bin/env bash
# Runs the bot built by build.sh; KASSEN_ADDRESS, KASSEN_TICKET (and KASSEN_SEED) pass through.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec java -jar "$dir/target/kassen-bot.jar" "$@"
