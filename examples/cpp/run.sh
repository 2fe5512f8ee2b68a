#!/usr/bin/env bash
# Run the built C++ example bot; KASSEN_ADDRESS / KASSEN_TICKET / KASSEN_SEED pass through.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$here/build/kassen_bot"
if [[ ! -x "$bin" ]]; then
  echo "cpp-example: $bin not built; run $here/build.sh first" >&2
  exit 1
fi
exec "$bin" "$@"
