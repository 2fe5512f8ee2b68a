#!/usr/bin/env bash
# Build the Go example bot: install the pinned protoc plugins (go.mod `tool` lines), generate
# the stubs from ../../proto into gen/, and build bin/bot. Safe to re-run; reuses Go's caches.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
proto_root="$(cd "$here/../../proto" && pwd)"
cd "$here"

# The plugins' versions are pinned in go.mod (go get -tool ...); install them into .bin/.
GOBIN="$here/.bin" go install tool
export PATH="$here/.bin:$PATH"

# protoc: $PROTOC if set, else protoc on PATH (Debian: protobuf-compiler), else ../../tools/protoc
# (the compiler that Python's grpcio-tools ships).
protoc="${PROTOC:-$(command -v protoc || echo "$here/../../tools/protoc")}"

# go_package is "kassen/gen/kassen/v1"; this module is named "kassen", so module=kassen puts
# the generated package at gen/kassen/v1 inside it. Regenerate only when a .proto changed.
stamp=gen/.stamp
if [[ ! -f $stamp ]] || [[ -n $(find "$proto_root" go.mod -newer "$stamp" -print -quit) ]]; then
  rm -rf gen && mkdir -p gen
  "$protoc" -I "$proto_root" \
    --go_out=. --go_opt=module=kassen \
    --go-grpc_out=. --go-grpc_opt=module=kassen \
    "$proto_root"/kassen/v1/*.proto
  touch "$stamp"
fi

go build -buildvcs=false -trimpath -o bin/bot .
