#!/usr/bin/env bash
# Held-out speech amid other voices: how a rule made on the benchmark's babble carries over.
#
#   scripts/held-out-babble.sh [OUT] [DIRECTME]   (OUT: build/held-out-babble; DIRECTME: .build/release/directme)
#
# The training set's tuning-only speakers (the tuning part of `directme-bench training-labels`
# less the checking speakers `directme tune --check-share 0.4` holds out: 1,694 recordings, 689
# commands and 1,005 other words, in neither the benchmark nor any rule's making), each mixed
# with babble made from the adaptation speakers' other words with another seed than the model's
# (six people talking, `directme-bench noises --babble-from`) at 10 and 5 dB under its speech part
# (the mean power of its frames within 20 dB of its loudest), scored by `directme score`:
# commands right ("up" apart: the word other voices take most) and other words moving the ninja.
# Give DIRECTME to score another build on the same files; DIRECTME_SCORE_OPTIONS ("--model DIR
# --grammar FILE") scores a candidate with the same build. Needs the training set
# ($DIRECTME_TRAIN or ../shared/data/speech-commands-train), `directme-bench` built and
# python3 with numpy (an analysis script's, not the product's).
set -euo pipefail
cd "$(dirname "$0")/.."
program=held-out-babble
. scripts/sound-checks.sh
speakers_setup build/held-out-babble "$@"
need_numpy
make_out

if [ ! -f "$out/labels-5.tsv" ]; then
  "$bench" training-labels --data "$train" --out "$out/split" >/dev/null
  "$bench" noises --out "$out/noise" --seconds 60 --variants 1 --seed 99 \
    --babble-from "$out/split/adaptation.tsv" --babble-variants 2 >/dev/null
  python3 scripts/held-out-mix.py "$out" 5 "$out/noise/babble-1.wav" "$out/noise/babble-2.wav"
fi

score_mixes "babble" "$out"
