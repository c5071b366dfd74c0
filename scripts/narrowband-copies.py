#!/usr/bin/env python3
"""Copies recordings as a narrowband link gives them: sox down to 8 kHz and back to 16 kHz
(`sox -R`, so the same input gives the same copy), nothing above 4 kHz, as a telephone or a
Bluetooth headset's 8 kHz link, and as `directme-bench accuracy`'s narrowband microphone.

  scripts/narrowband-copies.py --labels LABELS.tsv --out DIR   # DIR/labels.tsv names the copies
  scripts/narrowband-copies.py --folder NOISES --out DIR       # every .wav in NOISES, same names

For scripts/make-model.sh's people's model through an 8 kHz link (the adaptation part's
recordings and the adaptation noises). Copies already made are kept.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys


def copy(source, target):
    if os.path.exists(target):
        return
    low = target + ".8k.wav"
    for arguments in (["sox", "-V1", "-R", source, "-r", "8000", low], ["sox", "-V1", "-R", low, "-r", "16000", target + ".part.wav"]):
        run = subprocess.run(arguments, capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"narrowband-copies: {source}: sox failed: {run.stderr.strip()}")
    os.remove(low)
    os.replace(target + ".part.wav", target)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--labels", help="a labels file (path<TAB>directions[<TAB>...]); its paths absolute or relative to it")
    what.add_argument("--folder", help="a folder of .wav files (noises)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    out = os.path.abspath(arguments.out)
    jobs = []
    rows = []
    if arguments.labels:
        base = os.path.dirname(os.path.abspath(arguments.labels))
        try:
            lines = open(arguments.labels).read().splitlines()
        except OSError as error:
            raise SystemExit(f"narrowband-copies: {arguments.labels}: {error.strerror}")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            fields = line.split("\t")
            source = os.path.join(base, fields[0])
            if not os.path.isfile(source):
                raise SystemExit(f"narrowband-copies: {arguments.labels}:{number}: {fields[0]}: no such file")
            # Named by their folder and file: the training set's files repeat names across folders.
            name = "__".join(os.path.normpath(fields[0]).split(os.sep)[-2:])
            jobs.append((source, os.path.join(out, name)))
            rows.append("\t".join([os.path.join(out, name)] + fields[1:]))
    else:
        try:
            names = sorted(name for name in os.listdir(arguments.folder) if name.endswith(".wav"))
        except OSError as error:
            raise SystemExit(f"narrowband-copies: {arguments.folder}: {error.strerror}")
        if not names:
            raise SystemExit(f"narrowband-copies: {arguments.folder}: no .wav files")
        jobs = [(os.path.join(arguments.folder, name), os.path.join(out, name)) for name in names]
    with concurrent.futures.ThreadPoolExecutor(max(1, arguments.jobs)) as pool:
        for done, _ in enumerate(pool.map(lambda job: copy(*job), jobs), 1):
            if done % 500 == 0 or done == len(jobs):
                print(f"\rnarrowband copies: {done}/{len(jobs)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if rows:
        with open(os.path.join(out, "labels.tsv"), "w") as labels:
            labels.write("".join(row + "\n" for row in rows))


if __name__ == "__main__":
    main()
