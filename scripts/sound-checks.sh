# What scripts/held-out-sounds.sh, scripts/dev-sounds.sh, scripts/held-out-noise.sh,
# scripts/held-out-babble.sh and scripts/held-out-codecs.sh share (sourced, not run): Debian packages' sounds downloaded and
# unpacked without installing them, padded with a room's quiet, set at two levels, and scored with
# `directme score`, alone or under speech. The sourcing script sets `program`, its name for
# messages ("held-out-sounds"), before sourcing it, and then
#   out            the folder packages are unpacked into (absolute);
#   directme       the `directme` to score with.
# Sourced before any work: `score_options` (more options for `directme score`) comes from
# DIRECTME_SCORE_OPTIONS (e.g. "--model DIR --grammar FILE", to check a candidate), and the
# checks below stop with one line naming $program.

read -r -a score_options <<< "${DIRECTME_SCORE_OPTIONS:-}"

die() { # message...
  echo "$program: $*" >&2
  exit 1
}

need_program() { # path, how it is made
  [ -x "$1" ] || die "$1: no such program ($2)"
}

need_training_set() { # folder
  [ -f "$1/labels.tsv" ] || die "$1: no training set (labels.tsv) there"
}

need_numpy() {
  python3 -c 'import numpy' 2>/dev/null || die "needs numpy (pip install numpy)"
}

need_sox() {
  command -v sox >/dev/null || die "needs sox (scripts/setup.sh installs it)"
}

# The checks of the training set's speakers (held-out-babble, -noise, -codecs): sets out (the
# first argument, else DEFAULT), directme (the second, else the release build), bench and train
# ($DIRECTME_TRAIN or ../shared/data/speech-commands-train), and checks the last three.
speakers_setup() { # DEFAULT, then the script's arguments
  out="${2:-$1}"
  directme="${3:-.build/release/directme}"
  bench=".build/release/directme-bench"
  train="${DIRECTME_TRAIN:-../shared/data/speech-commands-train}"
  need_program "$bench" "swift build -c release builds it"
  need_program "$directme" "swift build -c release builds .build/release/directme"
  need_training_set "$train"
}

# Makes $out and makes it absolute.
make_out() {
  mkdir -p "$out"
  out="$(cd "$out" && pwd)"
}

fetch() { # package -> unpacked under $out/$package (under a name of its own until it is whole)
  local package="$1"
  if [ ! -d "$out/$package" ]; then
    echo "$program: downloading $package" >&2
    (cd "$out" && apt-get download "$package" >/dev/null 2>&1) || die "cannot download $package"
    rm -rf "$out/$package.part"
    dpkg-deb -x "$out"/"$package"_*.deb "$out/$package.part"
    rm -f "$out"/"$package"_*.deb
    mv "$out/$package.part" "$out/$package"
  fi
}

score() { # name, labels file: prints how many of its recordings move the ninja
  local rate
  rate=$("$directme" score "${score_options[@]}" "$2" --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%d recordings, %.1f%% move the ninja" % (d["recordings"], 100 * d["false_alarm_rate"]))')
  printf '%-48s %s\n' "$1" "$rate"
}

# A labels file of speech scored: one line, commands right and other words moving the ninja.
summarize() { # name, labels file
  "$directme" score "${score_options[@]}" "$2" --json 2>/dev/null | python3 scripts/held-out-summary.py "$1"
}

# A held-out-mix.py folder (labels-10.tsv and labels-5.tsv: speech mixed 10 and 5 dB over a
# background) scored at each SNR: one line each (`summarize`).
score_mixes() { # name, folder
  local snr
  for snr in 10 5; do
    summarize "$1 at $snr dB" "$2/labels-$snr.tsv"
  done
}

# Each recording of a labels file (absolute paths) again between 0.5 s of a room's quiet (white
# noise at -65 dBFS) as a microphone hears it, not as a game's file starts and ends with the sound:
# several rules (`briefUp`, a word's standout over its utterance) act on a sound that is the whole
# utterance, which live a lead-in and a pause never make it. sox's own random numbers (-R): the
# same files every run. sox reads no MP3, so those are left out.
in_room() { # name, labels file -> labels file of the padded copies, in $out/in-room/NAME
  local dir="$out/in-room/$1"
  if [ ! -f "$dir/labels.tsv" ]; then
    mkdir -p "$dir"
    : > "$dir/labels.tsv.part"
    cut -f1 "$2" | grep -v -i '\.mp3$' | while IFS= read -r path; do
      name=$(printf '%s' "$path" | md5sum | cut -c1-16)
      sox -V1 -D "$path" -r 16000 -c 1 -b 16 "$dir/part.wav" remix - pad 0.5 0.5 || continue
      sox -V1 -R -D -m "$dir/part.wav" "|sox -V1 -R -D -n -r 16000 -c 1 -p synth $(soxi -D "$dir/part.wav") whitenoise vol 0.00056" "$dir/$name.wav"
      printf '%s\t\n' "$name.wav" >> "$dir/labels.tsv.part"
    done
    rm -f "$dir/part.wav"
    mv "$dir/labels.tsv.part" "$dir/labels.tsv"
  fi
  echo "$dir/labels.tsv"
}

# Each recording of a folder of 16-kHz WAVs alone, its peak at -35 and at -20 dBFS (a background
# with nobody speaking, quiet and loud), into FOLDER with its labels.tsv (no command in any).
alone() { # folder of recordings, folder to write
  local dir="$2" sound name peak
  if [ ! -f "$dir/labels.tsv" ]; then
    mkdir -p "$dir"
    : > "$dir/labels.tsv.part"
    for sound in "$1"/*.wav; do
      name=$(basename "$sound" .wav)
      for peak in -35 -20; do
        sox -V1 -D "$sound" "$dir/${name}_$peak.wav" norm "$peak"
        printf '%s\t\n' "${name}_$peak.wav" >> "$dir/labels.tsv.part"
      done
    done
    mv "$dir/labels.tsv.part" "$dir/labels.tsv"
  fi
}
