#!/usr/bin/env bash
# Make this folder buildable without network, for a ladder's sandbox (kassen-bot.toml's
# `prepare`, run on the author's machine): copy the modules into vendor/ and generate the stubs
# into gen/, so the sandbox's `go build` needs neither the module proxy nor protoc.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
go mod vendor
"$here/stubs.sh"
