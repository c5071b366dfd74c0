#!/bin/sh
# Fuzzes the audio file reader (WAV, FLAC, OGG and MP3 seeds), the labels parser, the interpreter (100,000 inputs each) and grammar
# loading (10,000 grammars, each built into a PocketSphinx search). The test suite runs a
# short pass of the same tests.
set -eu
cd "$(dirname "$0")/.."
. scripts/env.sh
swift build --build-tests
DIRECTME_FUZZ_ITERATIONS="${DIRECTME_FUZZ_ITERATIONS:-100000}" swift test --skip-build --filter "Fuzz"
