#!/usr/bin/env python3
"""Could a classifier over every feature the heard lines print refuse or rescue lone command words
better than the detector's rules? (Stop 130's probe; the model README, "Measured, not used
(2026-12-07, stop 130)".)

  scripts/experiments/heard-classifier.py RUN/accuracy-items.tsv [HELD-OUT.jsonl...] [--labels LABELS.tsv...]

Reads one `directme-bench accuracy` run. For each item whose output is one command word, its one
heard command word taken (confidence >= 0.65) and its expectation that word or nothing, it keeps
the word's printed features (m, run, loud, loud run, band, tone, speech, out) and its utterance's
(seconds, voiced, range, all voiced, quiet voiced) with the word, labelled right (a command) or
wrong (another word or a sound moving the ninja): the veto's examples. Items without an output
whose one heard command word was refused are the rescue's examples. Then:

  1. On the run itself, 5-fold cross-validation grouped by speaker (or by sound's source): the items
     gained and lost when the words scored lowest are refused (or the refused words scored highest
     taken), beside the detector's own confidence used the same way.
  2. Trained on the whole run, on files the run does not hold: `directme replay --json` output
     (HELD-OUT.jsonl, one file a line) whose expectations come from --labels (path<TAB>directions;
     files without a label expect nothing), the same features read from the JSON.

An analysis aid, not part of the product: numpy and scikit-learn (`pip install scikit-learn`).
"""
import argparse
import collections
import csv
import importlib.util
import json
import re
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import GroupKFold

COMMANDS = ("up", "down", "left", "right")
FEATURES = ["m", "run", "loud", "loud_run", "band", "tone", "speech", "out", "seconds", "voiced", "range", "all_voiced", "quiet_voiced"]

# The heard lines are read as scripts/bench-diff.py's --where reads them (its WORD and names()),
# so the features are the ones its rules name, in its units (milliseconds, percent, dB).
_spec = importlib.util.spec_from_file_location("bench_diff", Path(__file__).resolve().parents[1] / "bench-diff.py")
bench_diff = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_diff)


def heard_words(line):
    """The command words of a heard line, each with its features and its utterance's (with "c")."""
    words = []
    for part in line.split(" | "):
        utterance = part.rsplit(" / ", 1)[-1]
        for match in bench_diff.WORD.finditer(part):
            word, margin, confidence, rest = match.group(1), match.group(2), float(match.group(3)), match.group(4)
            words.append((word, bench_diff.names(word, margin, confidence, rest, utterance)))
    return words


def row(features, word):
    return [features.get(k, np.nan) for k in FEATURES] + [COMMANDS.index(word)]


def group(item):
    speaker = re.search(r"([0-9a-f]{8})_nohash", item)
    return speaker.group(1) if speaker else "/".join(item.split("/")[:4])


def bench_examples(path):
    veto, rescue = [], []
    for r in csv.DictReader(open(path), delimiter="\t"):
        out, expected, words = r["directme"].strip(), r["expected"].strip(), heard_words(r["directme heard"])
        if out in COMMANDS and expected in ("", out):
            taken = [f for w, f in words if w == out and f.get("c", 0) >= 0.65]
            if len(taken) == 1:
                veto.append((row(taken[0], out), int(expected == out), group(r["item"]), taken[0]["c"], r["condition"]))
        if out == "" and expected in ("",) + COMMANDS and len(words) == 1 and "c" in words[0][1]:
            word, f = words[0]
            if not expected or word == expected:
                rescue.append((row(f, word), int(expected == word), group(r["item"]), f["c"], r["condition"]))
    return veto, rescue


def json_features(word, utterance):
    signal = utterance.get("signal", {})
    # In the heard lines' units: seconds as milliseconds, shares as percent.
    scaled = lambda value, by: None if value is None else value * by
    f = {"m": word.get("margin"), "run": scaled(word.get("voiced"), 1000), "loud": scaled(word.get("loud"), 1000),
         "loud_run": scaled(word.get("loud_run"), 1000), "band": scaled(word.get("speech_share"), 100),
         "tone": scaled(word.get("tone_share"), 100), "speech": word.get("speech_likeness"), "out": word.get("standout"),
         "seconds": utterance["end"] - utterance["start"], "voiced": scaled(signal.get("longest_voiced"), 1000),
         "range": signal.get("dynamic_range"), "all_voiced": scaled(signal.get("voiced"), 1000),
         "quiet_voiced": scaled(signal.get("background_voicing"), 100)}
    return {k: v for k, v in f.items() if v is not None}


def command_words(utterance):
    if utterance.get("reading") == "commands":
        words = utterance.get("words", [])
    else:
        words = [w for a in utterance.get("alternates", []) if a.get("reading") == "commands" for w in a.get("words", [])]
    return [w for w in words if w["word"] in COMMANDS]


def replay_examples(path, labels):
    veto, rescue = [], []
    for line in open(path):
        r = json.loads(line)
        expected, acted = labels.get(r["file"], ""), r["instructions"]
        heard = [u for u in r["utterances"] if command_words(u)]
        if len(heard) != 1:
            continue
        words = command_words(heard[0])
        if len(acted) == 1:
            taken = [w for w in words if w["word"] == acted[0]]
            if len(taken) == 1 and expected in ("", acted[0]):
                veto.append((row(json_features(taken[0], heard[0]), acted[0]), int(expected == acted[0])))
        elif not acted and len(words) == 1 and expected in ("", words[0]["word"]):
            rescue.append((row(json_features(words[0], heard[0]), words[0]["word"]), int(expected == words[0]["word"])))
    return veto, rescue


def model():
    return HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_depth=3, categorical_features=[len(FEATURES)])


def trade(score, right, cuts, refuse):
    """Items gained / lost as the lowest (refuse) or highest (rescue) scores are acted on first."""
    order = np.argsort(score if refuse else -score)
    good, bad = np.cumsum((1 - right)[order] if refuse else right[order]), np.cumsum(right[order] if refuse else (1 - right)[order])
    return "  ".join(f"{n}: {good[n - 1]}/{bad[n - 1]}" for n in cuts if n <= len(order))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("items")
    parser.add_argument("replays", nargs="*")
    parser.add_argument("--labels", nargs="*", default=[])
    args = parser.parse_args()
    cuts = [10, 20, 30, 50, 80, 120, 200]
    models = {}
    for name, examples, refuse in zip(("veto", "rescue"), bench_examples(args.items), (True, False)):
        x = np.array([e[0] for e in examples], float)
        y = np.array([e[1] for e in examples])
        groups = np.array([e[2] for e in examples])
        confidence = np.array([e[3] for e in examples])
        print(f"{name}: {len(y)} lone command words, {y.sum()} commands, {len(y) - y.sum()} not")
        held = np.zeros(len(y))
        for train, test in GroupKFold(5).split(x, y, groups):
            held[test] = model().fit(x[train], y[train]).predict_proba(x[test])[:, 1]
        print(f"  grouped cross-validation, gained/lost after N words: {trade(held, y, cuts, refuse)}")
        print(f"  the detector's confidence the same way:               {trade(confidence, y, cuts, refuse)}")
        for cut in (0.5, 0.3) if refuse else (0.5, 0.7):
            chosen = held < cut if refuse else held >= cut
            gained, lost = (((1 - y)[chosen]).sum(), y[chosen].sum()) if refuse else (y[chosen].sum(), ((1 - y)[chosen]).sum())
            where = collections.Counter(e[4] for e, c in zip(examples, chosen) if c and (e[1] == (0 if refuse else 1)))
            print(f"  p {'<' if refuse else '>='} {cut}: {gained} gained, {lost} lost; gained most in {where.most_common(3)}")
        models[name] = model().fit(x, y)
    labels = {}
    for path in args.labels:
        for line in open(path):
            if "\t" in line:
                file, directions = line.rstrip("\n").split("\t", 1)
                labels[file] = directions.strip()
    for path in args.replays:
        veto, rescue = replay_examples(path, labels)
        for name, examples in (("veto", veto), ("rescue", rescue)):
            if not examples:
                continue
            x = np.array([e[0] for e in examples], float)
            y = np.array([e[1] for e in examples])
            p = models[name].predict_proba(x)[:, 1]
            cut = 0.5
            chosen = p < cut if name == "veto" else p >= cut
            gained, lost = (((1 - y)[chosen]).sum(), y[chosen].sum()) if name == "veto" else (y[chosen].sum(), ((1 - y)[chosen]).sum())
            print(f"{path}: {name} at p {'<' if name == 'veto' else '>='} {cut}: {gained} gained, {lost} lost ({len(y) - y.sum()} other words or sounds, {y.sum()} commands)")


if __name__ == "__main__":
    main()
