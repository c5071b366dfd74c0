#!/usr/bin/env bash
# Builds release products (`swift build -c release --product P` for each P given), safely after a
# change: SwiftPM 6.3's incremental release build can leave a module that uses another's class
# compiled against the class's old layout when only the other module changed (a stored property
# added to PocketSphinxRecognizer: DirectMeCommandLine and directme kept allocating its old size, and
# the program corrupted its heap and crashed). So when any source or Package.swift differs from what
# the last build through this script saw, every Swift file is touched first and every module
# compiled again (a minute or so on 2 cores); with nothing changed the build is SwiftPM's own
# no-op. Its callers source scripts/env.sh first (swift on PATH): it does not.
#
#   scripts/release-build.sh directme [directme-bench]
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -gt 0 ] || { echo "release-build: name the products to build (directme, directme-bench)" >&2; exit 2; }
stamp=.build/directme-release-sources
sources="$(scripts/sources-hash.sh)"
if [ -d .build/release ] && [ "$(cat "$stamp" 2>/dev/null || true)" != "$sources" ]; then
  echo "release-build: sources changed since the last release build; compiling every module again" >&2
  find Sources -name '*.swift' -exec touch {} +
fi
for product in "$@"; do
  swift build -c release --product "$product"
done
echo "$sources" > "$stamp"
