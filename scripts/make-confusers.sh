#!/usr/bin/env bash
# Writes synthetic recordings of words people say that are not commands and that the
# training set has only a few of (off, yes, no, stop, on, ...: the other words real people
# were most often taken to say a command), for `directme tune` to learn what they sound
# like. Each voice is one "speaker", so tuning's split by speaker keeps voices apart.
#   scripts/make-confusers.sh OUT_DIR      (writes OUT_DIR/*.wav and OUT_DIR/labels.tsv)
set -euo pipefail
out=${1:?usage: scripts/make-confusers.sh OUT_DIR}
mkdir -p "$out"
words=(off on yes no stop wow dog house cat bed bird tree three six nine go
  nope yeah okay hey hello thanks wait)
voices=(flite:slt flite:rms flite:awb flite:kal16
  espeak-ng:en-us espeak-ng:en-us+m3 espeak-ng:en-us+f2 espeak-ng:en-gb+m1
  espeak-ng:en-gb-x-rp+f3 espeak-ng:en-gb-scotland+m2 espeak-ng:en-us+f4 espeak-ng:en-us+m6)
labels="$out/labels.tsv"
: > "$labels.tmp"
for voice in "${voices[@]}"; do
  engine=${voice%%:*}
  name=${voice#*:}
  tag=$(echo "$name" | tr '+' '-')
  for word in "${words[@]}"; do
    file="$out/$engine-$tag-$word.wav"
    if [ ! -s "$file" ]; then
      raw="$file.raw.wav"
      if [ "$engine" = flite ]; then
        flite -voice "$name" -t "$word" -o "$raw"
      else
        espeak-ng -v "$name" -w "$raw" "$word"
      fi
      sox "$raw" -r 16000 -c 1 -b 16 "$file" pad 0.3 0.3
      rm -f "$raw"
    fi
    printf '%s\t\t%s\t%s\n' "$(realpath "$file")" "$word" "$engine-$tag" >> "$labels.tmp"
  done
done
mv "$labels.tmp" "$labels"
echo "make-confusers: $(wc -l < "$labels") recordings in $out"
