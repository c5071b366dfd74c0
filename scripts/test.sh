#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds DirectMe and its tests once, and runs every test:
# unit tests, the recognizer on synthetic speech, the window (SDL dummy driver), the
# executable end to end, and live capture through a PulseAudio daemon the tests start.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
. scripts/env.sh
swift build --build-tests
swift test --skip-build "$@"
