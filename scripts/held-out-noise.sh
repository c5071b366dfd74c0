#!/usr/bin/env bash
# Held-out real noise: how the benchmark's room-noise figures carry over to real recordings of
# busy places that no rule was made on.
#
#   scripts/held-out-noise.sh [OUT] [DIRECTME]   (OUT: build/held-out-noise; DIRECTME: .build/release/directme)
#
# The training set's tuning-only speakers (the same 1,694 recordings as `held-out-babble.sh`: 689
# commands and 1,005 other words of speakers in neither the benchmark nor any rule's making), each
# mixed with a stretch of one of LinCity-NG's ambience recordings (Debian's lincity-ng-data,
# downloaded without installing it: 130 recordings of 2-5 s at 11 kHz of water, traffic, trains,
# farms, mines, industry, crowds, schools, markets; its clicks and window sounds left out) at 10 and
# 5 dB under its speech part, as the benchmark mixes its synthetic tap, bike and kitchen, scored by
# `directme score`: commands right, and other words moving the ninja; and the recordings alone (peak at
# -35 and -20 dBFS), which should move nothing. Give DIRECTME to score another
# build on the same files; DIRECTME_SCORE_OPTIONS ("--model DIR --grammar FILE") a candidate.
# Needs the training set ($DIRECTME_TRAIN or ../shared/data/speech-commands-train), `directme-bench`
# built, sox, python3 with numpy (an analysis script's, not the product's) and network access to the
# Debian mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
program=held-out-noise
. scripts/sound-checks.sh
speakers_setup build/held-out-noise "$@"
need_sox
need_numpy
make_out

if [ ! -f "$out/labels-5.tsv" ]; then
  if [ ! -d "$out/lincity-ng-data" ]; then
    echo "held-out-noise: downloading lincity-ng-data" >&2
    (cd "$out" && apt-get download lincity-ng-data >/dev/null 2>&1) || die "cannot download lincity-ng-data"
    dpkg-deb -x "$out"/lincity-ng-data_*.deb "$out/lincity-ng-data.part"
    rm -f "$out"/lincity-ng-data_*.deb
    mv "$out/lincity-ng-data.part" "$out/lincity-ng-data"
  fi
  mkdir -p "$out/noise"
  find "$out/lincity-ng-data/usr/share/games/lincity-ng/sounds" -name '*.wav' | sort | while IFS= read -r sound; do
    case "$(basename "$sound")" in Click* | Window*) continue ;; esac
    seconds=$(soxi -D "$sound")
    awk -v s="$seconds" 'BEGIN { exit !(s >= 2) }' || continue
    sox -D "$sound" -r 16000 -c 1 -b 16 "$out/noise/$(basename "$sound")" remix -
  done
  "$bench" training-labels --data "$train" --out "$out/split" >/dev/null
  python3 scripts/held-out-mix.py "$out" 3 "$out"/noise/*.wav
fi
alone "$out/noise" "$out/alone"

score_mixes "real ambience" "$out"
"$directme" score "${score_options[@]}" "$out/alone/labels.tsv" --json 2>/dev/null | python3 scripts/held-out-summary.py "real ambience alone"
