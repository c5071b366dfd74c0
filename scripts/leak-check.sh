#!/usr/bin/env bash
# Replays synthetic commands (one word, a carrier phrase, a sequence with early decisions,
# other speech, an espeak-ng voice that the synthetic-voices model decodes, a sentence read as
# one long command word, and with the training set at hand a person's "go" whose unsure "up"
# the stock model is asked about) through
# `directme replay` under valgrind: exits 1 on any memory error or
# memory definitely lost. Needs valgrind (apt-get install valgrind); about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
command -v valgrind >/dev/null || { echo "leak-check: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
scripts/release-build.sh directme
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=()
i=0
for text in "up" "please move the ninja left" "down. right. up." "good morning"; do
  i=$((i + 1))
  flite -voice slt -t "$text" -o "$work/raw$i.wav"
  sox -R "$work/raw$i.wav" -r 16000 -c 1 -b 16 "$work/$i.wav" pad 0.3 0.6
  files+=("$work/$i.wav")
done
# An espeak-ng voice: decoded by the synthetic-voices model (loaded on first use).
espeak-ng -v en-us -w "$work/raw-espeak.wav" "down"
sox -R "$work/raw-espeak.wav" -r 16000 -c 1 -b 16 "$work/espeak.wav" pad 0.3 0.6
files+=("$work/espeak.wav")
# A sentence read as one drawn-out command word: the final pass builds its several-words
# search (deferred until needed) on both models.
espeak-ng -v en-us+f5 -s 130 -w "$work/raw-sentence.wav" "the light is bright"
sox -R "$work/raw-sentence.wav" -r 16000 -c 1 -b 16 "$work/sentence.wav" pad 0.3 0.6
files+=("$work/sentence.wav")
# A person's "go" whose unsure "up" is read again by the stock model (the second opinion, loaded
# on first use), when the training set is at hand.
unsure="${DIRECTME_TRAIN:-../shared/data/speech-commands-train}/sc/other/go_32a19ecf_nohash_0.wav"
if [ -f "$unsure" ]; then files+=("$unsure"); else echo "leak-check: no $unsure, the second opinion is not exercised"; fi
valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 --num-callers=30 \
  --log-file="$work/valgrind.log" .build/release/directme replay "${files[@]}" >/dev/null || {
  cat "$work/valgrind.log" >&2
  echo "leak-check: valgrind found memory errors or leaks (log above)" >&2
  exit 1
}
grep -E "definitely lost|indirectly lost|ERROR SUMMARY" "$work/valgrind.log" | sed 's/^==[0-9]*== */leak-check: /'
