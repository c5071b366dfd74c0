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

# --voices: festival's voices too, which scripts/make-model.sh synthesizes adaptation clips with,
# instrumental music (asterisk-moh-opsound-wav, CC-BY-SA 3.0) for the benchmark's music condition, and
# a real voice's telephone prompts (asterisk-core-sounds-en-wav, CC-BY-SA 3.0) for its real-voice one, and
# the recordings of children's games and drum kits (real voices in 30 languages, animals, things, drums;
# GPL, CC-BY, CC0: each package's copyright file) for its real-recordings conditions, and MegaGlest's
# landscapes' ambient recordings (megaglest-data, CC-BY-SA 3.0: birds, night, rain, wind) for its ambience ones,
# and Freedoom (BSD), whose player and monster cries scripts/make-model.sh adapts the non-speech phone on
# (scripts/make-nonspeech.py reads them from /usr/share/games/doom/freedoom2.wad), and fluidsynth with
# FluidR3's General MIDI sound font (fluid-soundfont-gm, MIT), whose instruments and percussion
# scripts/make-model.sh fits the model's sound class on, and a keyboard's keys pressed and released
# (bucklespring-data, GPL-2+) for its typing conditions.
# (unzip opens OpenArena's sound archive, below.)
if [ "${1:-}" = "--voices" ]; then
  packages+=(festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts asterisk-moh-opsound-wav asterisk-core-sounds-en-wav
    ktuberling-data klettres-data qabcs-data tuxpaint-stamps-default hydrogen-drumkits
    megaglest-data freedoom fluidsynth fluid-soundfont-gm bucklespring-data unzip)
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

# --voices: also festival's kal and ked at 8 kHz for the benchmark. Debian installs them only in
# place of the 16 kHz ones, so they are unpacked into build/voices/festival-8k instead.
if [ "${1:-}" = "--voices" ]; then
  voices8k="$(cd "$(dirname "$0")/.." && pwd)/build/voices/festival-8k"
  if [ ! -d "$voices8k/usr/share/festival/voices/english/ked_diphone" ]; then
    download="$(mktemp -d)"
    if (cd "$download" && apt-get download festvox-kallpc8k festvox-kdlpc8k >/dev/null 2>&1); then
      mkdir -p "$voices8k"
      for deb in "$download"/*.deb; do dpkg -x "$deb" "$voices8k"; done
    else
      echo "setup: festival's 8 kHz voices could not be downloaded; the benchmark skips them" >&2
    fi
    rm -rf "$download"
  fi
fi

# --voices: also the cries, grunts and gasps of OpenArena's and Wesnoth's voice actors (GPL; each
# package's copyright file) for the benchmark's people's-cries condition, unpacked into build/sounds
# (the packages are not installed: only their sounds are kept, 25 MB of 220 MB).
if [ "${1:-}" = "--voices" ]; then
  sounds="$(cd "$(dirname "$0")/.." && pwd)/build/sounds"
  if [ ! -d "$sounds/openarena/sound/player" ] || [ ! -d "$sounds/wesnoth/usr/share/games/wesnoth/1.16/data/core/sounds" ]; then
    download="$(mktemp -d)"
    if (cd "$download" && apt-get download openarena-081-players wesnoth-1.16-data >/dev/null 2>&1); then
      rm -rf "$sounds/openarena" "$sounds/wesnoth"
      mkdir -p "$sounds/openarena" "$sounds/wesnoth"
      dpkg -x "$download"/openarena-081-players_*.deb "$download/openarena"
      unzip -q -o "$download"/openarena/usr/share/games/openarena/baseoa/pak2-players.pk3 'sound/player/*' -d "$sounds/openarena"
      cp "$download"/openarena/usr/share/doc/openarena-081-players/copyright "$sounds/openarena/"
      dpkg-deb --fsys-tarfile "$download"/wesnoth-1.16-data_*.deb | tar -x -C "$sounds/wesnoth" --wildcards \
        './usr/share/games/wesnoth/1.16/data/core/sounds/*' './usr/share/doc/wesnoth-1.16-data/copyright'
    else
      echo "setup: OpenArena's and Wesnoth's sounds could not be downloaded; the benchmark skips their condition" >&2
    fi
    rm -rf "$download"
  fi
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "setup: swift is at /opt/swift/usr/bin; add it to PATH" >&2
  else
    echo "setup: Swift 6 toolchain not found (expected on PATH or at /opt/swift)" >&2
    exit 1
  fi
fi
