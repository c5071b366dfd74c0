#!/usr/bin/env bash
# A second look at real sounds, between the benchmark and the held-out checks: how often
# recordings of five more games' sounds move the ninja.
#
#   scripts/dev-sounds.sh [OUT] [DIRECTME]   (OUT: build/dev-sounds; DIRECTME: .build/release/directme)
#
# The benchmark's sounds are where rules are made; scripts/held-out-sounds.sh's are never looked
# at but to check them. These sit between: look at what moves the ninja here (`directme replay
# --json` prints each command word's features) to see whether a rule made on the benchmark
# reaches sounds it was not made on, before the held-out checks are run. None of these
# packages is used by the benchmark, the held-out checks or the model's making. Downloads their
# data without installing it (apt-get download, dpkg-deb into OUT) and scores it with
# `directme score` (none holds a command: every instruction is a false alarm):
#   - people's cries: nexuiz-data's nine player voices (death, pain, gasp, jump, drown, fall
#     sounds; their spoken team messages left out), teeworlds-data's voice (cries, pain, ninja
#     and hammer-swing sounds) and freedink-data's grunts, scream and "no no" (132 sounds), each within
#     0.5 s of a room's quiet (white noise at -65 dBFS, as scripts/held-out-sounds.sh pads its
#     cries), and as the files are;
#   - music: widelands-data's and colobot-common-sounds' soundtracks (52 pieces, instrumental),
#     15-s stretches from 5 s on, every 30 s, at -35 and -20 dBFS in turn (as the held-out check
#     cuts MegaGlest's music);
#   - commands in real ambience: the benchmark's checking speakers (888 recordings: 355 commands,
#     533 other words) each mixed with a stretch of one of widelands-data's 72 sound recordings of
#     2 s or more (animals, birds, farms, mills, saws, smithies, stone cutting, wood cutting,
#     taverns; its interface sounds left out) at 10 and 5 dB under its speech part, as
#     scripts/held-out-noise.sh mixes the tuning-only speakers with LinCity's ambience: commands
#     right, and other words moving the ninja; and the recordings alone (peak at -35 and -20 dBFS).
#   - commands amid other people's babble: the same checking speakers mixed, the same way, with
#     babble of the training set's adaptation speakers (`directme-bench noises --babble-from`, seed
#     41; the benchmark's people-talking babble and scripts/held-out-babble.sh's are other seeds
#     and mixes).
#     The last two need the training set ($DIRECTME_TRAIN or ../shared/data/speech-commands-train),
#     directme-bench (DIRECTME_BENCH, or beside DIRECTME) and python3 with numpy.
# DIRECTME_SCORE_OPTIONS: more options for `directme score` (e.g. "--detector FILE").
set -euo pipefail
cd "$(dirname "$0")/.."
program=dev-sounds
. scripts/sound-checks.sh
out="${1:-build/dev-sounds}"
directme="${2:-.build/release/directme}"
need_program "$directme" "swift build -c release builds .build/release/directme"
make_out
bench="${DIRECTME_BENCH:-$(dirname "$directme")/directme-bench}"
train="${DIRECTME_TRAIN:-../shared/data/speech-commands-train}"
# What making the mixed sets (ambience, babble) needs.
mixing_needs() {
  need_program "$bench" "set DIRECTME_BENCH"
  need_training_set "$train"
  need_numpy
}

for package in nexuiz-data teeworlds-data freedink-data widelands-data colobot-common-sounds; do fetch "$package"; done
if [ ! -d "$out/nexuiz" ]; then
  unzip -q -o "$out/nexuiz-data/usr/share/games/nexuiz/data/data.pk3" 'sound/player/*' -d "$out/nexuiz.part"
  mv "$out/nexuiz.part" "$out/nexuiz"
fi

# The cries, each as a 16-kHz file of its own (sox reads Teeworlds' WavPack, `directme score`
# does not), then again within 0.5 s of a room's quiet (`in_room`).
cries="$out/cries"
if [ ! -f "$cries/files.tsv" ]; then
  mkdir -p "$cries/files"
  : > "$cries/files.tsv.part"
  {
    find "$out/nexuiz/sound/player" -path '*/player/*/player/*' -name '*.ogg' \
      | grep -E '/(death[0-9]*|drown|fall[0-9]*|falling|gasp|jump|pain[0-9]+)\.ogg$'
    find "$out/nexuiz/sound/player/torus" -maxdepth 1 -name '*.ogg' \
      | grep -E '/(death|drown|fall|gasp|jump|pain[0-9]+)\.ogg$'
    find "$out/teeworlds-data/usr/share/games/teeworlds/data/audio" -name 'vo_teefault_*.wv' \
      | grep -E '/vo_teefault_(cry|pain_short|pain_long|ninja|sledge)-[0-9]+\.wv$'
    for name in grunt1 grunt2 wscream nono; do echo "$out/freedink-data/usr/share/games/dink/dink/Sound/$name.wav"; done
  } | sort -u | while IFS= read -r path; do
    name=$(printf '%s' "${path#"$out"/}" | md5sum | cut -c1-16)
    sox -V1 -D "$path" -r 16000 -c 1 -b 16 "$cries/files/$name.wav" remix - || continue
    printf '%s\t\n' "$cries/files/$name.wav" >> "$cries/files.tsv.part"
  done
  mv "$cries/files.tsv.part" "$cries/files.tsv"
fi

music="$out/music"
if [ ! -f "$music/labels.tsv" ]; then
  mkdir -p "$music"
  : > "$music/labels.tsv.part"
  {
    find "$out/widelands-data/usr/share/games/widelands/data/music" -name '*.ogg' | sed 's/^/widelands /'
    find "$out/colobot-common-sounds/usr/share/games/colobot/music" -name '*.ogg' | sed 's/^/colobot /'
  } | sort | while read -r game piece; do
    name="${game}_$(basename "$piece" .ogg)"
    seconds=$(soxi -D "$piece" | cut -d. -f1)
    turn=0
    for start in 5 35 65 95 125 155; do
      [ $((start + 15)) -le "$seconds" ] || continue
      level=$([ $((turn % 2)) = 0 ] && echo -35 || echo -20)
      sox -V1 -D "$piece" -r 16000 -c 1 -b 16 "$music/${name}_$start.wav" trim "$start" 15 remix - norm "$level"
      printf '%s\t\n' "${name}_$start.wav" >> "$music/labels.tsv.part"
      turn=$((turn + 1))
    done
  done
  mv "$music/labels.tsv.part" "$music/labels.tsv"
fi

# Commands in real ambience: the checking speakers' recordings mixed with Widelands' sounds.
ambience="$out/ambience"
if [ ! -f "$ambience/labels-5.tsv" ]; then
  mixing_needs
  rm -rf "$ambience"
  mkdir -p "$ambience/noise"
  find "$out/widelands-data/usr/share/games/widelands/data/sound" -mindepth 2 -name '*.ogg' | sort | while IFS= read -r sound; do
    seconds=$(soxi -D "$sound")
    awk -v s="$seconds" 'BEGIN { exit !(s >= 2) }' || continue
    name=$(printf '%s' "${sound#"$out"/widelands-data/usr/share/games/widelands/data/sound/}" | tr / _)
    sox -V1 -D "$sound" -r 16000 -c 1 -b 16 "$ambience/noise/${name%.ogg}.wav" remix -
  done
  "$bench" training-labels --data "$train" --out "$ambience/split" >/dev/null
  python3 scripts/held-out-mix.py --checking "$ambience" 7 "$ambience"/noise/*.wav
fi
alone "$ambience/noise" "$ambience/alone"

# Commands amid other people's babble: the same speakers, babble of the adaptation speakers.
babble="$out/babble"
if [ ! -f "$babble/labels-5.tsv" ]; then
  mixing_needs
  rm -rf "$babble"
  mkdir -p "$babble"
  cp -r "$ambience/split" "$babble/split"
  "$bench" noises --out "$babble/noise" --seconds 60 --variants 1 --seed 41 \
    --babble-from "$babble/split/adaptation.tsv" --babble-variants 2 >/dev/null
  python3 scripts/held-out-mix.py --checking "$babble" 9 "$babble/noise/babble-1.wav" "$babble/noise/babble-2.wav"
fi

score "people's cries in a room (5 games' voices)" "$(in_room cries "$cries/files.tsv")"
score "people's cries, as the files are" "$cries/files.tsv"
score "music (15-s stretches, 2 games)" "$music/labels.tsv"
score_mixes "commands in Widelands' ambience" "$ambience"
score "Widelands' ambience alone" "$ambience/alone/labels.tsv"
score_mixes "commands amid other people's babble" "$babble"
