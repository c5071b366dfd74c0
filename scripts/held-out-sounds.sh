#!/usr/bin/env bash
# Held-out real sounds: how often recordings no rule was made on move the ninja.
#
#   scripts/held-out-sounds.sh [OUT] [DIRECTME]   (OUT: build/held-out; DIRECTME: .build/release/directme)
#
# Downloads six Debian packages' data without installing them (apt-get download, dpkg-deb -x into OUT)
# and scores their sound effects with `directme score` (none holds a command, so every instruction
# is a false alarm):
#   - minetest-data: Minetest's sound effects (109 files: footsteps, water, doors, tools, digging).
#   - megaglest-data's unit effects: non-vocal ones (hooves, hits, catapults, knives, water), attack
#     sounds (sword swings with battle cries) and death cries, apart; its units' spoken
#     acknowledgements (`_ack`, `_select`) left out, its landscapes' ambience too (the benchmark's
#     "real ambience" conditions use those).
#   - hedgewars-data's voices (15 voice packs of its hedgehogs, 839 recordings by voice actors, some
#     through effects: English packs and Polish, Russian, Spanish and Ukrainian ones): their phrases
#     ("take cover", "uh-oh", "bye bye") apart from their grunts, cries, laughs, moans and coughs (Ow,
#     Ooff, Jump, Firepunch, Laugh, Hmm, PoisonMoan, PoisonCough), which people make too.
#   - scratch's sound library (114 recordings): its people's sounds (coughs, sneezes, laughs,
#     screams, a baby crying, footsteps, a finger snap, a slurp) apart from the rest (animals,
#     instruments, music loops, effects, singing).
#   - openclonk-data's sound library (Sound.ocg, a C4Group archive read by scripts/c4group-extract.py):
#     its clonks' voices (four characters, CC-BY 3.0) split into people's sounds that are not words
#     (hurt, death, shock, scream and laughter sounds: 50) and babbled speech in no language
#     (confirm, decline, doubt, evil laughs and singing: 40), apart from the rest of the library
#     (animals, hits, fire, water, machines, weapons, a clonk's steps, digging and breathing; 307).
#   - megaglest-data's music (its nine menu and faction pieces): 15-s stretches from 5 s on, every
#     30 s, at -35 and -20 dBFS in turn (as the benchmark's "music alone" cuts Asterisk's hold music),
#     made with sox into OUT/megaglest-music.
#   - bucklespring-data's keyboard (an IBM Model M's keys, each pressed and released, GPL-2+): someone
#     typing words on its keys whose scan code is odd (the benchmark's typing conditions use the even
#     ones), 40 recordings of 3-8 s at -35 and -20 dBFS over a room's quiet, made by
#     scripts/make-typing.py into OUT/typing.
#   - the death cries, the grunts and cries, OpenClonk's clonks' cries and Scratch's people's sounds
#     again, each within 0.5 s of a room's quiet (OUT/in-room), as a microphone hears them between
#     stretches of the room.
# Keep them out of the benchmark and of any tuning: they are the check that a rule made on the
# benchmark's sounds carries over (give DIRECTME to score another build on the same files, DIRECTME_SCORE_OPTIONS such as
# "--model DIR --grammar FILE" a candidate). Needs
# `directme` built (swift build -c release) and network access to the Debian mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
program=held-out-sounds
. scripts/sound-checks.sh
out="${1:-build/held-out}"
directme="${2:-.build/release/directme}"
need_program "$directme" "swift build -c release builds .build/release/directme"
make_out

# One labels file per set: every file once (by content), no command expected.
labels() { # name, then paths on stdin
  local file="$out/$1.tsv"
  sort | while IFS= read -r path; do printf '%s\t%s\n' "$(md5sum < "$path" | cut -c1-32)" "$path"; done \
    | sort -u -k1,1 | cut -f2 | sort | awk '{print $0 "\t"}' > "$file"
  echo "$file"
}

fetch minetest-data
fetch megaglest-data
fetch hedgewars-data
fetch scratch
fetch openclonk-data
fetch bucklespring-data
[ -f "$out/typing/labels.tsv" ] || python3 scripts/make-typing.py "$out/bucklespring-data/usr/share/buckle/wav" "$out/typing" --keys odd --count 40 >/dev/null
if [ ! -d "$out/openclonk" ]; then
  python3 scripts/c4group-extract.py "$out/openclonk-data/usr/share/games/openclonk/Sound.ocg" "$out/openclonk.part" >/dev/null
  mv "$out/openclonk.part" "$out/openclonk"
fi
sounds() { find "$1" -type f \( -iname '*.ogg' -o -iname '*.wav' -o -iname '*.mp3' \); }
minetest=$(sounds "$out/minetest-data/usr/share/games/minetest" | labels minetest)
units=$(sounds "$out/megaglest-data/usr/share/games/megaglest" | grep -v -e /tilesets/ -e /music/ -e _ack -e _select)
music="$out/megaglest-music"
if [ ! -f "$music/labels.tsv" ]; then
  mkdir -p "$music"
  : > "$music/labels.tsv.part"
  sounds "$out/megaglest-data/usr/share/games/megaglest" | grep /music/ | sort | while IFS= read -r piece; do
    name=$(basename "$piece" .ogg)
    seconds=$(soxi -D "$piece" | cut -d. -f1)
    turn=0
    for start in 5 35 65 95 125 155; do
      [ $((start + 15)) -le "$seconds" ] || continue
      level=$([ $((turn % 2)) = 0 ] && echo -35 || echo -20)
      sox -D "$piece" -r 16000 -c 1 -b 16 "$music/${name}_$start.wav" trim "$start" 15 remix - norm "$level"
      printf '%s\t\n' "${name}_$start.wav" >> "$music/labels.tsv.part"
      turn=$((turn + 1))
    done
  done
  mv "$music/labels.tsv.part" "$music/labels.tsv"
fi
voices=$(sounds "$out/hedgewars-data/usr/share/games/hedgewars/Data/Sounds/voices")
vocal='/(Ow|Ooff|Jump|Firepunch|Laugh|Hmm|PoisonMoan|PoisonCough)[0-9]*\.ogg$'
phrases=$(echo "$voices" | grep -v -E "$vocal" | labels hedgewars-phrases)
cries=$(echo "$voices" | grep -E "$vocal" | labels hedgewars-cries)
library=$(sounds "$out/scratch/usr/share/scratch/Media/Sounds")
people=$(echo "$library" | grep /Human/ | labels scratch-people)
others=$(echo "$library" | grep -v /Human/ | labels scratch-others)
clonk=$(sounds "$out/openclonk")
skins='/Clonk\.ocg/Skin\.ocg/'
nonwords='/(Hurt|Die|Shock|Scream|Laughter)[0-9]*\.(wav|ogg)$'
clonk_cries=$(echo "$clonk" | grep -E "$skins" | grep -E "$nonwords" | labels openclonk-cries)
clonk_babble=$(echo "$clonk" | grep -E "$skins" | grep -v -E "$nonwords" | labels openclonk-babble)
clonk_others=$(echo "$clonk" | grep -v -E "$skins" | labels openclonk-others)
effects=$(echo "$units" | grep -v -e attack -e _die | labels megaglest-effects)
attacks=$(echo "$units" | grep -e attack | labels megaglest-attacks)
deaths=$(echo "$units" | grep -e _die | labels megaglest-deaths)

score "Minetest's sound effects" "$minetest"
score "MegaGlest's unit effects (non-vocal)" "$effects"
score "MegaGlest's attack sounds (swings, battle cries)" "$attacks"
score "MegaGlest's death cries" "$deaths"
score "MegaGlest's music (15-s stretches)" "$music/labels.tsv"
score "Hedgewars' voices: phrases" "$phrases"
score "Hedgewars' voices: grunts, cries, coughs" "$cries"
score "Scratch's people (coughs, sneezes, laughs)" "$people"
score "Scratch's other sounds" "$others"
score "OpenClonk's clonks: cries, screams, laughs" "$clonk_cries"
score "OpenClonk's clonks: babbled speech" "$clonk_babble"
score "OpenClonk's other sounds" "$clonk_others"
score "keyboard typing (keys the bench does not use)" "$out/typing/labels.tsv"

# The sounds of people again, each within 0.5 s of a room's quiet (`in_room`, scripts/sound-checks.sh).
score "in a room: MegaGlest's death cries" "$(in_room megaglest-deaths "$deaths")"
score "in a room: Hedgewars' grunts, cries, coughs" "$(in_room hedgewars-cries "$cries")"
score "in a room: Scratch's people (no MP3s)" "$(in_room scratch-people "$people")"
score "in a room: OpenClonk's clonks' cries" "$(in_room openclonk-cries "$clonk_cries")"
