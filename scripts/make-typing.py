#!/usr/bin/env python3
"""Recordings of someone typing, from a keyboard's keys recorded one by one.

  scripts/make-typing.py KEYS_FOLDER OUT [--keys odd|even|all] [--count N] [--seed S]

KEYS_FOLDER holds each key pressed (NN-0.wav) and released (NN-1.wav), NN its scan code in
hexadecimal (Debian's bucklespring-data, /usr/share/buckle/wav). Writes N recordings (3, 5 and
8 s in turn), each at two levels (peaks at -35 and -20 dBFS) over a room's quiet (white noise
at -65 dBFS), and OUT/labels.tsv listing them with no command. The typist types words: 2-8
letters 0.1-0.25 s apart (the pace drawn per recording), a space bar between words, now and
then a backspace or a pause to think of 0.5-2 s (the space bar and backspace only when their
scan codes are of the keys asked for); each key is held 40-140 ms.

The benchmark's typing conditions (directme-bench, `CorpusBuilder.typingAlone`) use the keys
whose scan code is even; scripts/held-out-sounds.sh uses this script with the odd ones (and a
typist of its own), so that a rule made on the first is checked on keys it was not made on.
Standard library only.
"""
import argparse
import math
import os
import random
import struct
import wave

SPACE, BACKSPACE = 0x39, 0x0E


def read(path):
    with wave.open(path) as w:
        rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        if width != 2:
            raise SystemExit(f"make-typing: {path}: not 16-bit PCM")
        data = struct.unpack("<%dh" % (w.getnframes() * channels), w.readframes(w.getnframes()))
    return rate, [sum(data[i:i + channels]) / channels for i in range(0, len(data), channels)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys_folder")
    parser.add_argument("out")
    parser.add_argument("--keys", choices=["odd", "even", "all"], default="odd")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    names = set(os.listdir(args.keys_folder)) if os.path.isdir(args.keys_folder) else set()
    codes = sorted(int(n[:-6], 16) for n in names if n.endswith("-0.wav") and n[:-6] + "-1.wav" in names)
    if not codes:
        raise SystemExit(f"make-typing: {args.keys_folder}: no keys (NN-0.wav and NN-1.wav) there")
    parity = {"odd": [1], "even": [0], "all": [0, 1]}[args.keys]
    letters = [c for c in codes if c % 2 in parity and c not in (SPACE, BACKSPACE)]
    keys, rate = {}, None
    for code in set(letters) | {c for c in (SPACE, BACKSPACE) if c in codes and c % 2 in parity}:
        (rate, press), (_, release) = (read(os.path.join(args.keys_folder, "%02x-%d.wav" % (code, i))) for i in (0, 1))
        keys[code] = (press, release)

    os.makedirs(args.out, exist_ok=True)
    random_ = random.Random(args.seed)
    labels = []
    for index in range(args.count):
        seconds = (3, 5, 8)[index % 3]
        samples = [0.0] * (seconds * rate)

        def add(sound, at, gain):
            start = int(at * rate)
            for offset, value in enumerate(sound[:max(0, len(samples) - start)]):
                samples[start + offset] += value * gain

        pace = random_.uniform(0.1, 0.25)
        time = random_.uniform(0.05, 0.8)
        while time < seconds:
            for _ in range(random_.randint(2, 8)):
                code = random_.choice(letters)
                if BACKSPACE in keys and random_.random() < 0.04:
                    code = BACKSPACE
                press, release = keys[code]
                add(press, time, random_.uniform(0.5, 1.0))
                add(release, time + random_.uniform(0.04, 0.14), random_.uniform(0.5, 1.0))
                time += pace * math.exp(random_.gauss(0, 0.3))
            if SPACE in keys:
                press, release = keys[SPACE]
                add(press, time, random_.uniform(0.5, 1.0))
                add(release, time + random_.uniform(0.05, 0.12), random_.uniform(0.5, 1.0))
                time += pace * math.exp(random_.gauss(0, 0.3))
            if random_.random() < 0.15:
                time += random_.uniform(0.5, 2.0)
        peak = max(1.0, max(abs(v) for v in samples))
        for level in (-35, -20):
            gain = 10 ** (level / 20) * 32767 / peak
            room = 10 ** (-65 / 20) * 32767
            noise = random.Random(args.seed * 1000 + index)
            data = [max(-32768, min(32767, int(round(v * gain + noise.gauss(0, room))))) for v in samples]
            name = "typing-%03d_%d.wav" % (index, level)
            with wave.open(os.path.join(args.out, name), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(rate)
                w.writeframes(struct.pack("<%dh" % len(data), *data))
            labels.append(os.path.join(os.path.abspath(args.out), name) + "\t\n")
    with open(os.path.join(args.out, "labels.tsv.part"), "w") as f:
        f.writelines(labels)
    os.replace(os.path.join(args.out, "labels.tsv.part"), os.path.join(args.out, "labels.tsv"))
    print("make-typing: %d recordings in %s" % (len(labels), args.out))


if __name__ == "__main__":
    main()
