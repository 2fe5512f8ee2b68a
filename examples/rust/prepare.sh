#!/usr/bin/env bash
# Make this folder buildable without network, for a ladder's sandbox (kassen-bot.toml's
# `prepare`, run on the author's machine): copy the crates of Cargo.lock into vendor/, point
# cargo at them (.cargo/config.toml), and copy Kassen's .proto files into proto/ for build.rs
# (the sandbox's build prefers the ladder's own, $KASSEN_PROTO, when it shows them).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
proto_root="${KASSEN_PROTO:-$here/../../proto}"

cargo vendor --locked --quiet vendor
mkdir -p .cargo
cat > .cargo/config.toml <<'TOML'
# Written by prepare.sh: build from the crates in vendor/, never from the network.
[source.crates-io]
replace-with = "vendored-sources"

[source.vendored-sources]
directory = "vendor"
TOML

if [[ -d $proto_root/kassen/v1 ]]; then
  rm -rf proto && mkdir -p proto/kassen
  cp -R "$proto_root/kassen/v1" proto/kassen/v1
elif [[ ! -d proto/kassen/v1 ]]; then
  echo "prepare.sh: no Kassen protos at $proto_root (set KASSEN_PROTO)" >&2
  exit 1
fi
