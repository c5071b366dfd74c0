#!/usr/bin/env bash
# Installs every Debian package that building, running and testing DirectMe need.
# Safe to run again: only missing packages are installed.
set -euo pipefail

packages=(
  pkg-config
  libpocketsphinx-dev libsphinxbase-dev pocketsphinx pocketsphinx-en-us sphinxtrain
  libpulse-dev pulseaudio pulseaudio-utils libsndfile1-dev libsamplerate0-dev
  libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev fonts-dejavu-core
  espeak-ng flite sox sphinxbase-utils
)

# --voices: festival's voices too, which scripts/make-model.sh synthesizes adaptation clips with.
if [ "${1:-}" = "--voices" ]; then
  packages+=(festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "setup: swift is at /opt/swift/usr/bin; add it to PATH" >&2
  else
    echo "setup: Swift 6 toolchain not found (expected on PATH or at /opt/swift)" >&2
    exit 1
  fi
fi
