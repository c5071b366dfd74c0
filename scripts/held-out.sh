#!/usr/bin/env bash
# Every held-out check, one after another: real sounds (held-out-sounds.sh), speech amid other
# voices (held-out-babble.sh) and speech in real ambience (held-out-noise.sh), none of them in the
# benchmark or in any rule's making. Run it for every rule made on the benchmark before landing
# it: a rule the benchmark likes can lose on them (stop 85: a 26-to-4 win on the benchmark moved
# the ninja for more of the held-out babble's other words than it gained commands).
#
#   scripts/held-out.sh [DIRECTME] [OUT]   (DIRECTME: .build/release/directme; OUT: build)
#
# The files are made once, under OUT/held-out, OUT/held-out-babble and OUT/held-out-noise, and
# reused; give DIRECTME to score another build on the same files. About 9 minutes on 2 cores.
# DIRECTME_SCORE_OPTIONS ("--model DIR --grammar FILE", any `directme score` options) scores
# a candidate model, grammar or detector with the same build.
set -euo pipefail
cd "$(dirname "$0")/.."
directme="${1:-.build/release/directme}"
out="${2:-build}"
scripts/held-out-sounds.sh "$out/held-out" "$directme"
scripts/held-out-babble.sh "$out/held-out-babble" "$directme"
scripts/held-out-noise.sh "$out/held-out-noise" "$directme"
