"""How soon commands said over a background that goes on are acted on, and how many are right.

    python3 scripts/noise-reaction.py [--directme PATH] [--out DIR] [--gap SECONDS] [--snr DB]

Makes, once, under OUT (default build/noise-reaction): the bench's seeded room noises
(`directme-bench noises`: tap, bike, kitchen, pink; 30 s each, two recordings of each) and,
in each, six one-command recordings of the training set's checking speakers (the benchmark's:
`directme-bench training-labels`) said GAP seconds apart (default 4) from 8 s on, each SNR dB
(default 10) over the noise's mean power (its speech part, frames within 20 dB of its loudest,
at -20 dBFS; the noise under it);
each word ends where its frames fall SNR + 5 dB under its loudest (what stands over the noise).
Then replays each file with `directme replay --json` and prints, by noise: the commands acted
on with the right direction, instructions that match no command, and the reaction (the
instruction's emission after the end of the command's speech part): p50, p90 and the slowest.
`directme-bench live` measures reaction in a room's quiet; this is the same over a background,
where a pause under the endpointer's floor may never come. Stop 115's build: at 10 dB 40 of 48
right, p50 / p90 0.14 / 0.50 s, the slowest 1.86 s (the kitchen's clatter); at 30 dB 43 of 48,
0.16 / 0.49 / 1.95 s. About 30 s on 2 cores. An analysis script's: needs numpy, not the product.
"""
import argparse, json, os, random, subprocess, sys, wave

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
np = None  # numpy, imported in main
NOISES = ["tap", "bike", "kitchen", "pink"]
COMMANDS = {"up", "down", "left", "right"}
SPEECH_POWER = (32768 * 10 ** (-20 / 20)) ** 2


def read(path):
    with wave.open(path) as w:
        if w.getframerate() != 16000 or w.getnchannels() != 1 or w.getsampwidth() != 2:
            sys.exit("noise-reaction: %s: not 16 kHz mono 16-bit WAV" % path)
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)


def write(path, x):
    with wave.open(path + ".part", "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(np.clip(np.round(x), -32768, 32767).astype(np.int16).tobytes())
    os.replace(path + ".part", path)


def speech_part(x, audible):
    """The mean power of the frames (10 ms) within 20 dB of the loudest (the benchmark's speech
    part), and the word's first and last sample as `directme-bench live` finds them (frames
    within 25 dB of the loudest, running from it with gaps of at most 150 ms), but within
    `audible` dB: what stands over the noise it is mixed with."""
    frames = len(x) // 160
    power = np.array([np.mean(x[i * 160:(i + 1) * 160] ** 2) + 1e-9 for i in range(frames)])
    peak = int(np.argmax(power))
    loud = power >= power[peak] / 10 ** (min(25, audible) / 10)

    def reach(step):
        """The furthest loud frame from the peak in one direction, past gaps of 150 ms at most."""
        index = furthest = peak
        gap = 0
        while 0 <= index + step < frames and gap <= 15:
            index += step
            furthest, gap = (index, 0) if loud[index] else (furthest, gap + 1)
        return furthest

    first, last = reach(-1), reach(1)
    return float(np.mean(power[power >= power[peak] / 100])), first * 160, (last + 1) * 160


def make(args, bench):
    os.makedirs(args.out, exist_ok=True)
    split = os.path.join(args.out, "split")
    if not os.path.exists(os.path.join(split, "checking.tsv")):
        subprocess.run([bench, "training-labels", "--out", split], check=True, stdout=subprocess.DEVNULL)
    noise_dir = os.path.join(args.out, "noise")
    if not os.path.exists(os.path.join(noise_dir, "pink-2.wav")):
        subprocess.run([bench, "noises", "--out", noise_dir, "--seconds", "30", "--variants", "2"], check=True, stdout=subprocess.DEVNULL)
    commands = []
    with open(os.path.join(split, "checking.tsv"), encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 2 and fields[1] in COMMANDS:
                commands.append((fields[0], fields[1]))
    if not commands:
        sys.exit("noise-reaction: %s: no one-command recordings" % os.path.join(split, "checking.tsv"))
    rng = random.Random(7)
    made = []
    for noise in NOISES:
        for variant in (1, 2):
            # The commands' speech parts at -20 dBFS, the noise SNR dB under them: nothing clips.
            background = read(os.path.join(noise_dir, "%s-%d.wav" % (noise, variant)))
            x = background * np.sqrt(SPEECH_POWER * 10 ** (-args.snr / 10) / float(np.mean(background ** 2)))
            said = []
            for k, (path, word) in enumerate(rng.sample(commands, 6)):
                clip = read(path)
                power, first, last = speech_part(clip, args.snr + 5)
                clip = clip * np.sqrt(SPEECH_POWER / power)
                at = int((8 + args.gap * k) * 16000)
                if at + len(clip) > len(x):
                    break
                x[at:at + len(clip)] += clip
                said.append((word, (at + first) / 16000, (at + last) / 16000))
            name = os.path.join(args.out, "%s-%d.wav" % (noise, variant))
            write(name, x)
            made.append((noise, name, said))
    with open(os.path.join(args.out, "said.json"), "w") as f:
        json.dump(made, f)
    return made


def acted(directme, name):
    """Each instruction of a replay: direction, its word's start and end, when it was emitted."""
    run = subprocess.run([directme, "replay", "--json", name], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("noise-reaction: %s: %s" % (name, run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "replay failed"))
    replay = json.loads(run.stdout)
    out = []
    for utterance in replay["utterances"]:
        readings = [utterance] + utterance.get("alternates", [])
        words = next((r.get("words", []) for r in readings if r.get("reading") == "commands"), [])
        for direction in utterance["instructions"]:
            word = next((w for w in words if w["word"] == direction), {"start": utterance["start"], "end": utterance["end"]})
            out.append((direction, word["start"], word["end"], utterance["emitted_at"]))
    return out


def quantile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--directme", default=os.path.join(ROOT, ".build", "release", "directme"))
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "noise-reaction"))
    parser.add_argument("--gap", type=float, default=4.0)
    parser.add_argument("--snr", type=float, default=10.0)
    args = parser.parse_args()
    bench = os.path.join(os.path.dirname(args.directme), "directme-bench")
    for program in (args.directme, bench):
        if not os.access(program, os.X_OK):
            sys.exit("noise-reaction: %s: not built (scripts/release-build.sh directme directme-bench)" % program)
    global np
    try:
        import numpy as np
    except ImportError:
        sys.exit("noise-reaction: needs numpy (pip install numpy): an analysis script's, not the product's")
    said_path = os.path.join(args.out, "said.json")
    made = json.load(open(said_path)) if os.path.exists(said_path) else make(args, bench)
    rows = []
    for noise in NOISES:
        right = total = extra = 0
        reactions = []
        for kind, name, said in made:
            if kind != noise:
                continue
            got = acted(args.directme, name)
            used = set()
            for word, start, end in said:
                total += 1
                match = [i for i, g in enumerate(got) if i not in used and g[1] < end + 0.3 and g[2] > start - 0.3]
                if match:
                    used.add(match[0])
                    if got[match[0]][0] == word:
                        right += 1
                        reactions.append(got[match[0]][3] - end)
            extra += len(got) - len(used)
        rows.append((noise, right, total, extra, reactions))
        report(*rows[-1])
    report("all", *(sum(row[k] for row in rows) for k in (1, 2, 3)), [r for row in rows for r in row[4]])


def report(label, right, total, extra, reactions):
    reactions = sorted(reactions)
    print("%-8s %2d of %2d right, %d more instructions; reaction p50 %.2f s, p90 %.2f s, slowest %.2f s"
          % (label, right, total, extra, quantile(reactions, 0.5), quantile(reactions, 0.9), reactions[-1] if reactions else float("nan")))

if __name__ == "__main__":
    main()
