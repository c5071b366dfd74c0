#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds DirectMe and opens the window, listening to the
# default microphone (hands-free). Extra arguments go to `directme`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
. scripts/env.sh
scripts/release-build.sh directme
if ! pactl info >/dev/null 2>&1; then
  echo "run: no PulseAudio server answering; starting one (pulseaudio --start)" >&2
  pulseaudio --start --exit-idle-time=-1 || true
fi
# A machine without a display (a server, a container, ssh without X forwarding) runs
# headless: the ninja's position is printed after each instruction.
headless=()
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${SDL_VIDEODRIVER:-}" ]; then
  echo "run: no display (DISPLAY is not set); running headless: the ninja's position is printed after each instruction" >&2
  headless=(--headless)
fi
exec .build/release/directme live --hands-free "${headless[@]}" "$@"
