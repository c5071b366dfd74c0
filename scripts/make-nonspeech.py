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

With --wad and --effects: Freedoom's other sound lumps instead (weapons, doors, switches, items,
a hoof, a claw: everything but the voices above), for the model's sound class (sound-class.json,
`directme-bench sound-class`), written the same way (speaker "freedoom-effects").

With --folder: every WAV file of a folder (e.g. Tux Math's public-domain sound effects), cut to 3 s,
written the same way (speaker: --speaker).

With --soundfont: a General MIDI sound font (FluidR3_GM.sf2, MIT licence, Debian's
fluid-soundfont-gm) played by fluidsynth: each of its 128 instruments holding one note for 1.5 s,
and each of its 47 percussion sounds once (speaker "fluidr3"), written the same way.

Usage: scripts/make-nonspeech.py --wad /usr/share/games/doom/freedoom2.wad --out build/model/nonspeech
       scripts/make-nonspeech.py --aard .../cube2/packages/sounds/aard --out build/model/nonspeech-aard
       scripts/make-nonspeech.py --wad /usr/share/games/doom/freedoom2.wad --effects --out build/model/sounds-effects
       scripts/make-nonspeech.py --folder .../tuxmath/sounds --speaker tuxmath --out build/model/sounds-tuxmath
       scripts/make-nonspeech.py --soundfont /usr/share/sounds/sf2/FluidR3_GM.sf2 --out build/model/sounds-fluidr3
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
    parser.add_argument("--effects", action="store_true", help="with --wad: Freedoom's other sounds, not its voices")
    parser.add_argument("--folder", help="a folder of WAV files (instead of --wad)")
    parser.add_argument("--speaker", default="sounds", help="with --folder: the speaker column of the labels")
    parser.add_argument("--soundfont", help="a General MIDI .sf2 sound font played by fluidsynth (instead of --wad)")
    parser.add_argument("--out", required=True, help="folder for the recordings and labels.tsv")
    args = parser.parse_args()
    if sum(given is not None for given in (args.wad, args.aard, args.folder, args.soundfont)) != 1:
        raise SystemExit("make-nonspeech: give one of --wad (Freedoom's sounds), --aard (Sauerbraten's), --folder or --soundfont")
    if args.aard is not None:
        return write_aard(args.aard, args.out)
    if args.folder is not None:
        return write_folder(args.folder, args.speaker, args.out)
    if args.soundfont is not None:
        return write_soundfont(args.soundfont, args.out)
    sounds = lumps(args.wad)
    if args.effects:
        return write_effects(sounds, args.wad, args.out)
    missing = [name for name in VOICES if name not in sounds]
    if missing:
        raise SystemExit(f"{args.wad}: no sound DS{missing[0].upper()} (and {len(missing) - 1} more): not Freedoom 0.12's WAD?")
    with tempfile.TemporaryDirectory() as work:
        sources = lump_sources(sounds, VOICES, work)
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


def lump_sources(sounds, names, work):
    """(name, WAV path) of each of the `sounds` lumps named, written into `work`."""
    sources = []
    for name in names:
        rate, samples = sounds[name]
        source = os.path.join(work, name + ".wav")
        with wave.open(source, "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(1)
            out.setframerate(rate)
            out.writeframes(samples)
        sources.append((name, source))
    return sources


def write_effects(sounds, wad, out):
    """Freedoom's sounds that are not its voices, each at three pitches in a room's quiet (cut to 3 s)."""
    names = sorted(name for name in sounds if name not in VOICES)
    if len(names) < 40:
        raise SystemExit(f"{wad}: {len(names)} sound effects besides the voices: not Freedoom 0.12's WAD?")
    with tempfile.TemporaryDirectory() as work:
        sources = [("fd-" + name, path) for name, path in lump_sources(sounds, names, work)]
        count = write_in_room(sources, out, "freedoom-effects", work, trim=3)
    print(f"wrote {out}: {count} recordings of {len(names)} Freedoom sound effects")


def write_folder(folder, speaker, out):
    """Every WAV file of `folder`, each at three pitches in a room's quiet (cut to 3 s)."""
    try:
        names = sorted(name for name in os.listdir(folder) if name.lower().endswith(".wav"))
    except OSError as error:
        raise SystemExit(f"{folder}: cannot read the folder ({error.strerror})")
    if not names:
        raise SystemExit(f"{folder}: no WAV files")
    with tempfile.TemporaryDirectory() as work:
        sources = [(speaker + "-" + os.path.splitext(name)[0], os.path.join(folder, name)) for name in names]
        count = write_in_room(sources, out, speaker, work, trim=3)
    print(f"wrote {out}: {count} recordings of {len(names)} sounds of {folder}")


def midi_file(events, path):
    """A one-track MIDI file of (delta ticks, event bytes), 480 ticks a beat at 120 beats a minute."""
    def number(value):
        out = [value & 0x7F]
        value >>= 7
        while value:
            out.append(0x80 | (value & 0x7F))
            value >>= 7
        return bytes(reversed(out))
    track = b"".join(number(delta) + event for delta, event in events) + b"\x00\xff\x2f\x00"
    with open(path, "wb") as f:
        f.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480) + b"MTrk" + struct.pack(">I", len(track)) + track)


def write_soundfont(soundfont, out):
    """Each General MIDI instrument holding a note for 1.5 s (notes 48-71 by turns) and each
    percussion sound (notes 35-81), played by fluidsynth from `soundfont`, at three pitches in a
    room's quiet (cut to 3 s)."""
    if not os.path.isfile(soundfont):
        raise SystemExit(f"{soundfont}: no such sound font (Debian's fluid-soundfont-gm installs FluidR3_GM.sf2)")
    with tempfile.TemporaryDirectory() as work:
        sources = []
        for program in range(128):
            note = 48 + (program * 7) % 24
            sources.append((f"gm-program{program:03d}", [(0, bytes([0xC0, program])), (0, bytes([0x90, note, 100])),
                                                         (1440, bytes([0x80, note, 0])), (960, bytes([0x90, note, 0]))]))
        for note in range(35, 82):
            sources.append((f"gm-drum{note:02d}", [(0, bytes([0x99, note, 110])), (480, bytes([0x89, note, 0])),
                                                   (960, bytes([0x99, note, 0]))]))
        rendered = []
        for name, events in sources:
            midi = os.path.join(work, name + ".mid")
            wav = os.path.join(work, name + ".wav")
            midi_file(events, midi)
            run(["fluidsynth", "-ni", "-g", "0.8", "-r", "16000", "-F", wav, soundfont, midi])
            rendered.append((name, wav))
        count = write_in_room(rendered, out, "fluidr3", work, trim=3)
    print(f"wrote {out}: {count} recordings of {len(sources)} sounds of {soundfont}")


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{command[0]}: {result.stderr.strip() or 'failed'} ({' '.join(command)})")


if __name__ == "__main__":
    main()
