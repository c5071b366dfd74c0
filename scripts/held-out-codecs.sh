#!/usr/bin/env bash
# Held-out speech through lossy codecs: how recordings that went through an audio file's or a
# telephone's compression before DirectMe replays them are heard.
#
#   scripts/held-out-codecs.sh [OUT] [DIRECTME]   (OUT: build/held-out-codecs; DIRECTME: .build/release/directme)
#
# The training set's tuning-only speakers (as scripts/held-out-babble.sh takes them: the tuning
# part of `directme-bench training-labels` less the checking speakers `directme tune
# --check-share 0.4` holds out; 1,694 recordings, 689 commands and 1,005 other words, in neither
# the benchmark nor any rule's making) as recorded, and each through one codec and back to 16-bit
# WAV by sox:
#   - Ogg Vorbis at sox's quality 3 (its default), 0 and -1 (its lowest: about 12-16 kbit/s of
#     audio for 16 kHz mono, a voice note squeezed hard);
#   - GSM 06.10 at 8 kHz (a telephone line's full-rate codec);
#   - AMR-NB at 8 kHz, 12.2 kbit/s (a mobile phone's voice codec).
# scored by `directme score`: commands right ("up" apart) and other words moving the ninja, one
# line per codec. sox encodes with its repeatable random numbers (-R): its dither, fresh on every
# run otherwise, made GSM and AMR-NB a different signal each time (GSM's commands right 82.4-85.6%
# over three encodings of the same recordings, stop 132), and builds compare only on one set.
# The Speech Commands clips themselves were recorded in browsers and many went through Ogg Vorbis
# on the way (the data set's paper), so "as recorded" is one codec already.
# Give DIRECTME to score another build on the same files; DIRECTME_SCORE_OPTIONS ("--model DIR
# --grammar FILE") scores a candidate with the same build. Needs the training set
# ($DIRECTME_TRAIN or ../shared/data/speech-commands-train), `directme-bench` built, and sox able
# to write Ogg Vorbis, GSM and AMR-NB (Debian's libsox-fmt-all). About 5 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
program=held-out-codecs
. scripts/sound-checks.sh
speakers_setup build/held-out-codecs "$@"
need_sox
formats=$(sox -h 2>/dev/null | sed -n 's/^AUDIO FILE FORMATS: //p')
for format in vorbis gsm amr-nb; do
  case " $formats " in
    *" $format "*) ;;
    *) die "sox cannot write $format (apt-get install libsox-fmt-all)" ;;
  esac
done
make_out

# The tuning-only speakers' recordings: path and expected directions.
if [ ! -f "$out/recorded.tsv" ]; then
  "$bench" training-labels --data "$train" --out "$out/split" >/dev/null
  python3 scripts/held-out-mix.py --list "$out" > "$out/recorded.tsv.part"
  mv "$out/recorded.tsv.part" "$out/recorded.tsv"
fi

# One codec: NAME, the extension of its compressed files, then sox's output options for them.
# Each recording (numbered by its line) is compressed, then decoded at 16 kHz, two at a time.
encode() {
  local name="$1" extension="$2"
  shift 2
  local dir="$out/$name" number=0 path
  [ -f "$dir/labels.tsv" ] && return 0
  rm -rf "$dir" && mkdir -p "$dir"
  while IFS=$'\t' read -r path _; do
    number=$((number + 1))
    local file
    file=$(printf '%s/%05d' "$dir" "$number")
    { sox -V1 -R "$path" "$@" "$file.$extension" && sox -V1 -R "$file.$extension" -r 16000 -c 1 -b 16 "$file.wav" && rm "$file.$extension"; } &
    if [ $((number % 2)) = 0 ]; then wait; fi
  done < "$out/recorded.tsv"
  wait
  [ "$(find "$dir" -name '*.wav' | wc -l)" = "$number" ] || die "sox could not write every $name file in $dir"
  awk -F'\t' '{ printf "%05d.wav\t%s\n", NR, $2 }' "$out/recorded.tsv" > "$dir/labels.tsv.part"
  mv "$dir/labels.tsv.part" "$dir/labels.tsv"
}
encode vorbis-q3 ogg -C 3
encode vorbis-q0 ogg -C 0
encode vorbis-lowest ogg -C -1
encode gsm gsm -r 8000
encode amr-nb amr-nb -r 8000 -C 7

summarize "as recorded" "$out/recorded.tsv"
summarize "Ogg Vorbis, quality 3" "$out/vorbis-q3/labels.tsv"
summarize "Ogg Vorbis, quality 0" "$out/vorbis-q0/labels.tsv"
summarize "Ogg Vorbis, lowest quality" "$out/vorbis-lowest/labels.tsv"
summarize "GSM 06.10, 8 kHz" "$out/gsm/labels.tsv"
summarize "AMR-NB 12.2 kbit/s, 8 kHz" "$out/amr-nb/labels.tsv"
