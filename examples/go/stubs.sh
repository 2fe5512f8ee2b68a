#!/usr/bin/env bash
# Generate the Go stubs for kassen.v1 into gen/: install the pinned protoc plugins (go.mod `tool`
# lines) into .bin/ and run protoc on the .proto files. The protos come from $KASSEN_PROTO if
# set, else ../../proto. Regenerates only when a .proto or go.mod changed. Used by build.sh and
# by prepare.sh (a submission carries its stubs, so its sandboxed build needs no protoc).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
proto_root="$(cd "${KASSEN_PROTO:-$here/../../proto}" && pwd)"
cd "$here"

# protoc: $PROTOC if set, else protoc on PATH (Debian: protobuf-compiler), else ../../tools/protoc
# (the compiler that Python's grpcio-tools ships).
protoc="${PROTOC:-$(command -v protoc || echo "$here/../../tools/protoc")}"

# go_package is "kassen/gen/kassen/v1"; this module is named "kassen", so module=kassen puts
# the generated package at gen/kassen/v1 inside it.
stamp=gen/.stamp
if [[ ! -f $stamp ]] || [[ -n $(find "$proto_root" go.mod -newer "$stamp" -print -quit) ]]; then
  # The plugins' versions are pinned in go.mod (go get -tool ...); install them into .bin/.
  GOBIN="$here/.bin" go install tool
  rm -rf gen && mkdir -p gen
  PATH="$here/.bin:$PATH" "$protoc" -I "$proto_root" \
    --go_out=. --go_opt=module=kassen \
    --go-grpc_out=. --go-grpc_opt=module=kassen \
    "$proto_root"/kassen/v1/*.proto
  touch "$stamp"
fi
