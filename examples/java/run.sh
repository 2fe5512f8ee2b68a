#!/usr/bin/env bash
# Runs the bot built by build.sh; KASSEN_ADDRESS, KASSEN_TICKET_FILE or KASSEN_TICKET (and
# KASSEN_SEED) pass through, and the descriptor a launching referee names in KASSEN_TICKET_FILE
# (/dev/fd/3) stays open across exec.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec java -jar "$dir/target/kassen-bot.jar" "$@"
