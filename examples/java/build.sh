#!/usr/bin/env bash
# Builds target/kassen-bot.jar: Maven generates the gRPC stubs from ../../proto (fetching protoc
# and protoc-gen-grpc-java from Maven Central into ~/.m2) and shades everything into one jar.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
jar=target/kassen-bot.jar
# Up to date if the jar is newer than the pom, the sources and the protos.
if [[ -f "$jar" ]] && [[ -z "$(find pom.xml src ../../proto -newer "$jar" -print -quit)" ]]; then
  exit 0
fi
mvn -q -B package -DskipTests
