#!/usr/bin/env bash
# Make this folder buildable in a ladder's sandbox (kassen-bot.toml's `prepare`, run on the
# author's machine): copy Kassen's .proto files into proto/. gRPC, protobuf, protoc and
# grpc_cpp_plugin come from the ladder's system (Debian packages under /usr), and the build
# prefers the ladder's own protos ($KASSEN_PROTO) when it shows them.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
proto_root="${KASSEN_PROTO:-$here/../../proto}"

if [[ -d $proto_root/kassen/v1 ]]; then
  rm -rf proto && mkdir -p proto/kassen
  cp -R "$proto_root/kassen/v1" proto/kassen/v1
elif [[ ! -d proto/kassen/v1 ]]; then
  echo "prepare.sh: no Kassen protos at $proto_root (set KASSEN_PROTO)" >&2
  exit 1
fi
