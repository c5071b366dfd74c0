#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds DirectMe and opens the window, listening to the
# default microphone (hands-free). Extra arguments go to `directme`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
. scripts/env.sh
swift build -c release --product directme
if ! pactl info >/dev/null 2>&1; then
  echo "run: no PulseAudio server answering; starting one (pulseaudio --start)" >&2
  pulseaudio --start --exit-idle-time=-1 || true
fi
exec .build/release/directme live --hands-free "$@"
