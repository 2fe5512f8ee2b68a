#!/usr/bin/env bash
# Configure (first time only) and build the C++ example bot into examples/cpp/build/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -f "$here/build/CMakeCache.txt" ]]; then
  cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$here/build" -j2
