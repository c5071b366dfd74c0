"""Mixes the training set's tuning-only speakers with a background, for the held-out checks.

    python3 scripts/held-out-mix.py [--checking] OUT SEED NOISE.wav...
    python3 scripts/held-out-mix.py --list [--checking] OUT

OUT holds `split/` (from `directme-bench training-labels`): the speakers `directme tune
--check-share 0.4` keeps for tuning, its tuning part less its checking speakers (in neither
the benchmark nor any rule's making); with --checking, its checking speakers instead (the
benchmark's: scripts/dev-sounds.sh, where rules may be looked at). Each of their recordings is mixed with a stretch of one
of the NOISE files (16 kHz mono 16-bit WAV; chosen and placed by SEED; a file shorter than
the recording is repeated) at 10 and 5 dB under its speech part (the mean power of its frames
within 20 dB of its loudest, as the benchmark mixes), into OUT/10 and OUT/5 with
OUT/labels-10.tsv and OUT/labels-5.tsv (and OUT/mixes-10.tsv, OUT/mixes-5.tsv: each mixed file,
its recording, its noise file and where in it the stretch starts, in seconds). With --list, it
only prints those speakers' recordings (path, expected directions: a labels file) and mixes
nothing (scripts/held-out-codecs.sh). An analysis script's: needs numpy to mix, not the product.
"""
import os, random, sys, wave

np = None  # numpy, imported only to mix


def read(path):
    with wave.open(path) as w:
        if w.getframerate() != 16000 or w.getnchannels() != 1 or w.getsampwidth() != 2:
            sys.exit("held-out-mix: %s: not 16 kHz mono 16-bit WAV" % path)
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)


def write(path, x):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(np.clip(np.round(x), -32768, 32767).astype(np.int16).tobytes())


def labels(out, name):
    return [line.rstrip("\n").split("\t") for line in open(os.path.join(out, "split", name))]


def main():
    global np
    arguments = sys.argv[1:]
    listing = arguments[:1] == ["--list"]
    if listing:
        arguments = arguments[1:]
    checking_speakers = arguments[:1] == ["--checking"]
    if checking_speakers:
        arguments = arguments[1:]
    if not arguments:
        sys.exit("held-out-mix: no OUT folder given")
    out = arguments[0]
    checking = {r[0] for r in labels(out, "checking.tsv")}
    if checking_speakers:
        rows = labels(out, "checking.tsv")
    else:
        rows = [r for r in labels(out, "tuning.tsv") if r[0] not in checking]
    if listing:
        sys.stdout.writelines("%s\t%s\n" % (row[0], row[1]) for row in rows)
        return
    if len(arguments) < 2:
        sys.exit("held-out-mix: no SEED given")
    seed, paths = int(arguments[1]), arguments[2:]
    if not paths:
        sys.exit("held-out-mix: no noise files given")
    import numpy

    np = numpy
    noises = [read(p) for p in paths]
    rng = random.Random(seed)
    for snr in (10, 5):
        folder = os.path.join(out, str(snr))
        os.makedirs(folder, exist_ok=True)
        lines = []
        mixes = []
        for index, row in enumerate(rows):
            x = read(row[0])
            frames = x[: len(x) // 160 * 160].reshape(-1, 160)
            power = (frames ** 2).mean(axis=1) + 1e-9
            speech = power[power >= power.max() / 100].mean()
            which = rng.randrange(len(noises))
            noise = noises[which]
            if len(noise) <= len(x):
                noise = np.tile(noise, len(x) // len(noise) + 2)
            start = rng.randrange(len(noise) - len(x))
            piece = noise[start : start + len(x)]
            y = x + piece * np.sqrt(speech / ((piece ** 2).mean() + 1e-9) / 10 ** (snr / 10))
            peak = np.abs(y).max()
            if peak > 32767:
                y *= 32767 / peak
            path = os.path.join(folder, "%04d.wav" % index)
            write(path, y)
            lines.append("%s\t%s\n" % (path, row[1]))
            mixes.append("%s\t%s\t%s\t%.3f\n" % (path, row[0], paths[which], start / 16000))
        with open(os.path.join(out, "mixes-%d.tsv" % snr), "w") as f:
            f.writelines(mixes)
        part = os.path.join(out, "labels-%d.tsv.part" % snr)
        with open(part, "w") as f:
            f.writelines(lines)
        os.replace(part, os.path.join(out, "labels-%d.tsv" % snr))


main()
