#!/usr/bin/env bash
# Build the Go example bot: generate the stubs into gen/ (stubs.sh) and build bin/bot. Safe to
# re-run; reuses Go's caches.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/stubs.sh"
cd "$here"
go build -buildvcs=false -trimpath -o bin/bot .
