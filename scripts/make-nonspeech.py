#!/usr/bin/env python3
"""Writes the recordings DirectMe's non-speech word is adapted on: people's and creatures'
cries, grunts and gasps from Freedoom (BSD licence), each in a room's quiet.

The model's +SPN+ phone (the word "nonspeech" of grammars/directme.dict, in <garbage>) is adapted on
these alone (`directme adapt --only-phones +SPN+`, scripts/make-model.sh): a grunt, a pained
"oof" or a monster's growl is then explained by something better than a short "up".

Each of the sounds below (Freedoom's player and monster voices: sight, activity, pain and
death sounds; not weapons, doors or items) is read from freedoom2.wad (8-bit, 11 kHz), and
written three times at 16 kHz, at its pitch and 300 cents lower and higher (sox's `pitch`,
the tempo kept), with 0.5 s of a room's quiet before and after it (white noise, low-passed at
3 kHz, at -75 to -55 dBFS peak by turns; sox -R: the same files every run), as a live
microphone hears a short sound between pauses. The labels file gives each the transcript
"nonspeech" (path<TAB><TAB>nonspeech<TAB>freedoom).

With --aard instead of --wad: Sauerbraten's "aard" player sounds (Debian's cube2-data,
packages/sounds/aard: pain1-6, die1-2, grunt1-2, public domain, made by aard with his own voice),
each cut to its first 3 s and written the same way (transcript "nonspeech", speaker "aard"), for
the phone's second adaptation (stop 91's candidate; see the model README).

Usage: scripts/make-nonspeech.py --wad /usr/share/games/doom/freedoom2.wad --out build/model/nonspeech
       scripts/make-nonspeech.py --aard .../cube2/packages/sounds/aard --out build/model/nonspeech-aard
"""
import argparse, os, struct, subprocess, sys, tempfile, wave

# Freedoom's lumps named DS<name>: player and monster voices.
VOICES = (
    "bgact bgdth1 bgdth2 bgsit1 bgsit2 bosdth bospn bossit brsdth brssit bspact bspdth bspsit "
    "cacdth cacsit cybdth cybsit dmact dmpain keendt keenpn kntdth kntsit mandth mansit mnpain "
    "noway oof pdiehi pepain pesit pldeth plpain podth1 podth2 podth3 popain posact posit1 posit2 "
    "posit3 sgtdth sgtsit skeact skedth skesit spidth spisit ssdth sssit vilact vildth vilsit vipain"
).split()
PITCHES = [-300, 0, 300]


def lumps(path):
    """The sound lumps of a WAD file: name -> (sample rate, unsigned 8-bit samples)."""
    try:
        data = open(path, "rb").read()
    except OSError as error:
        raise SystemExit(f"{path}: cannot read the WAD file ({error.strerror})")
    if len(data) < 12 or data[:4] not in (b"IWAD", b"PWAD"):
        raise SystemExit(f"{path}: not a WAD file")
    count, offset = struct.unpack("<ii", data[4:12])
    sounds = {}
    for index in range(count):
        start, size, name = struct.unpack("<ii8s", data[offset + 16 * index : offset + 16 * index + 16])
        name = name.rstrip(b"\0").decode("ascii", "replace").lower()
        body = data[start : start + size]
        # Doom's sound format: 3, the sample rate, the sample count (with 16 bytes of padding
        # at either end), the samples.
        if not name.startswith("ds") or len(body) < 8:
            continue
        kind, rate, samples = struct.unpack("<HHI", body[:8])
        if kind == 3:
            sounds[name[2:]] = (rate, body[8 + 16 : 8 + samples - 16])
    return sounds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wad", help="Freedoom's freedoom2.wad")
    parser.add_argument("--aard", help="Sauerbraten's packages/sounds/aard folder (instead of --wad)")
    parser.add_argument("--out", required=True, help="folder for the recordings and labels.tsv")
    args = parser.parse_args()
    if (args.wad is None) == (args.aard is None):
        raise SystemExit("make-nonspeech: give --wad (Freedoom's cries) or --aard (Sauerbraten's), one of them")
    if args.aard is not None:
        return write_aard(args.aard, args.out)
    sounds = lumps(args.wad)
    missing = [name for name in VOICES if name not in sounds]
    if missing:
        raise SystemExit(f"{args.wad}: no sound DS{missing[0].upper()} (and {len(missing) - 1} more): not Freedoom 0.12's WAD?")
    with tempfile.TemporaryDirectory() as work:
        sources = []
        for name in VOICES:
            rate, samples = sounds[name]
            source = os.path.join(work, name + ".wav")
            with wave.open(source, "wb") as out:
                out.setnchannels(1)
                out.setsampwidth(1)
                out.setframerate(rate)
                out.writeframes(samples)
            sources.append((name, source))
        count = write_in_room(sources, args.out, "freedoom", work)
    print(f"wrote {args.out}: {count} recordings of {len(VOICES)} Freedoom voices")


def write_in_room(sources, out, speaker, work, trim=None):
    """Each (name, path) of `sources` at each of PITCHES (its first `trim` seconds, when given), within
    0.5 s of a room's quiet, as OUT/NAME+CENTS.wav, and OUT/labels.tsv labelling them nonspeech by
    `speaker`; `work` holds the intermediate files. Returns how many it wrote."""
    os.makedirs(out, exist_ok=True)
    shifted = os.path.join(work, "shifted.wav")
    padded = os.path.join(work, "padded.wav")
    room = os.path.join(work, "room.wav")
    rows = []
    for number, (name, source) in enumerate(sources):
        for turn, cents in enumerate(PITCHES):
            index = number * len(PITCHES) + turn + 1
            level = -75 + (index * 7) % 21
            target = os.path.abspath(os.path.join(out, f"{name}{cents:+d}.wav"))
            cut = ["trim", "0", str(trim)] if trim is not None else []
            run(["sox", "-V1", "-R", source, "-r", "16000", "-c", "1", "-b", "16", shifted] + cut
                + ["pitch", str(cents), "rate", "16000"])
            seconds = float(subprocess.run(["soxi", "-D", shifted], capture_output=True, text=True, check=True).stdout)
            run(["sox", "-V1", "-R", shifted, padded, "pad", "0.5", "0.5"])
            run(["sox", "-V1", "-R", "-D", "-n", "-r", "16000", "-c", "1", "-b", "16", room,
                 "synth", str(seconds + 1.0), "whitenoise", "gain", "-n", str(level), "lowpass", "3000"])
            run(["sox", "-V1", "-R", "-m", padded, room, target])
            rows.append(f"{target}\t\tnonspeech\t{speaker}\n")
    with open(os.path.join(out, "labels.tsv"), "w", encoding="utf-8") as f:
        f.writelines(rows)
    return len(rows)


AARD = ["die1", "die2", "grunt1", "grunt2", "pain1", "pain2", "pain3", "pain4", "pain5", "pain6"]


def write_aard(folder, out):
    """Sauerbraten's aard sounds, each at three pitches in a room's quiet (as Freedoom's, cut to 3 s)."""
    missing = [name for name in AARD if not os.path.isfile(os.path.join(folder, name + ".wav"))]
    if missing:
        raise SystemExit(f"{folder}: no {missing[0]}.wav (and {len(missing) - 1} more): not cube2-data's packages/sounds/aard?")
    with tempfile.TemporaryDirectory() as work:
        sources = [("aard-" + name, os.path.join(folder, name + ".wav")) for name in AARD]
        count = write_in_room(sources, out, "aard", work, trim=3)
    print(f"wrote {out}: {count} recordings of {len(AARD)} of Sauerbraten's aard sounds")


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{command[0]}: {result.stderr.strip() or 'failed'} ({' '.join(command)})")


if __name__ == "__main__":
    main()
