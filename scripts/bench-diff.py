#!/usr/bin/env python3
"""Compare two runs of `directme-bench accuracy`, or simulate a gate rule on one.

  scripts/bench-diff.py BEFORE/accuracy-items.tsv AFTER/accuracy-items.tsv [--show]
      Per condition (items in both runs): the figure before and after (right for items with a
      command, moving the ninja for items without), items gained and lost, and how likely a
      split at least that uneven is by chance (two-sided sign test over the items that changed;
      a condition's items share recordings, so read it as a lower bound); --show lists them.

  scripts/bench-diff.py ITEMS.tsv --refuse FEATURE --at-least X | --under X [--words up,down] [--show]
      What the run would have given had the detector also refused every command word it took
      (confidence >= --threshold, 0.65) whose printed FEATURE ("tone", "band", "loud", "run",
      "out", "m" for the margin) is at least / under X: a rule tried on the heard lines
      before it is built. Items whose acted-on directions do not match their heard words
      (early decisions, companions) are left as they were.

  scripts/bench-diff.py ITEMS.tsv --where EXPRESSION [--show]
      The same for any rule over a taken word and its utterance: EXPRESSION is a Python
      expression, true for a word to refuse, over the word's printed features (m, c, run,
      loud, loud_run, band, tone, f0, h1h4, speech, out), its utterance's (seconds, voiced, range, all_voiced,
      quiet_voiced, warp), word ("up", ...), other (the utterance's other-words reading,
      "of", "go now", ...), synthetic (routed to the synthetic voices'
      model), and base and base_m (the second opinion's word and margin, "" and nan when
      the base model was not asked). A feature not printed is nan, which no comparison
      holds: the word is kept, as the gate keeps a word it cannot measure. Stop 98's
      short-bed rule from 0.8 s was found with:
      --where "not synthetic and 0.8 <= seconds < 1 and out < 4 and range < 55".

Standard library only (an analysis aid, not part of the product).
"""
import argparse
import collections
import math
import re
import sys

WORD = re.compile(r"\b(up|down|left|right)\((m -?[\d.]+), c ([\d.]+)([^)]*)\)")


def read(path):
    items = collections.OrderedDict()
    with open(path, encoding="utf-8") as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "condition" or len(fields) < 7:
                continue
            items[(fields[0], fields[1])] = (fields[2], fields[3], fields[6])
    return items


def good(expected, acted):
    return acted == expected if expected else acted == ""


def feature(text, name):
    found = re.search(r"(?:^|, )" + re.escape(name) + r" (-?[\d.]+)", text)
    return float(found.group(1)) if found else None


WORD_FEATURES = ["m", "run", "loud", "loud run", "band", "tone", "f0", "h1h4", "speech", "out"]
UTTERANCE = re.compile(r"\(([\d.]+) s, voiced (\d+) ms, range (\d+) dB, all voiced (\d+) ms, quiet voiced (\d+)%")


def names(word, margin, confidence, rest, utterance):
    """The names --where's expression sees for one taken word (see the module's text)."""
    values = {name.replace(" ", "_"): feature(margin + rest, name) for name in WORD_FEATURES}
    values = {name: math.nan if value is None else value for name, value in values.items()}
    stats = UTTERANCE.search(utterance)
    values.update(zip(
        ["seconds", "voiced", "range", "all_voiced", "quiet_voiced"],
        [float(stats.group(i)) for i in range(1, 6)] if stats else [math.nan] * 5))
    values["warp"] = feature(utterance.split("(", 1)[-1], "warp") or math.nan
    values["other"] = utterance.split(" (", 1)[0].strip()
    values.update(word=word, c=confidence, synthetic="synthetic model" in utterance, nan=math.nan)
    base = re.search(r"base: (\w+) (-?[\d.]+)", rest)
    values.update(base=base.group(1) if base else "", base_m=float(base.group(2)) if base else math.nan)
    return values


def sign_test(gained, lost):
    """Two-sided sign test: the chance of a split of gained + lost changed items at least as
    uneven as this one if each change went either way with probability 1/2."""
    n = gained + lost
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(gained, lost) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def report(pairs, show):
    """pairs: (condition, item) -> (expected, before, after, heard)."""
    conditions = collections.OrderedDict()
    for key, value in pairs.items():
        conditions.setdefault(key[0], []).append((key[1],) + value)
    print(f"{'condition':70s} {'n':>5s} {'before':>7s} {'after':>7s} gained lost      p")
    totals = [0, 0]
    for condition, rows in conditions.items():
        commands = any(row[1] for row in rows)
        def figure(acted_index):
            if commands:
                return 100 * sum(good(row[1], row[acted_index]) for row in rows) / len(rows)
            return 100 * sum(row[acted_index] != "" for row in rows) / len(rows)
        gained = [row for row in rows if good(row[1], row[3]) and not good(row[1], row[2])]
        lost = [row for row in rows if good(row[1], row[2]) and not good(row[1], row[3])]
        totals[0] += len(gained)
        totals[1] += len(lost)
        if gained or lost:
            kind = "" if commands else "  (moving the ninja)"
            p = sign_test(len(gained), len(lost))
            print(f"{condition[:70]:70s} {len(rows):5d} {figure(2):7.1f} {figure(3):7.1f} {len(gained):6d} {len(lost):4d} {p:6.3f}{kind}")
            if show:
                for tag, group in (("+", gained), ("-", lost)):
                    for row in group:
                        print(f"    {tag} {row[0]} | expected '{row[1]}' | '{row[2]}' -> '{row[3]}' | {row[4][:160]}")
    print(f"items gained {totals[0]}, lost {totals[1]} (sign test p = {sign_test(*totals):.3g})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after", nargs="?")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--refuse", metavar="FEATURE")
    kind.add_argument("--where", metavar="EXPRESSION")
    bound = parser.add_mutually_exclusive_group()
    bound.add_argument("--at-least", type=float)
    bound.add_argument("--under", type=float)
    parser.add_argument("--words", default="up,down,left,right", help="with --refuse (with --where, name the word in it)")
    parser.add_argument("--threshold", type=float, default=0.65)
    parser.add_argument("--show", action="store_true")
    options = parser.parse_args()

    before = read(options.before)
    if options.after:
        after = read(options.after)
        report({key: (value[0], value[1], after[key][1], after[key][2]) for key, value in before.items() if key in after}, options.show)
        return
    if options.where is not None:
        try:
            rule = compile(options.where, "--where", "eval")
        except SyntaxError as error:
            sys.exit(f"bench-diff: --where: {error.msg}: {options.where}")
    elif not options.refuse or (options.at_least is None and options.under is None):
        sys.exit("bench-diff: give a second items file, --refuse FEATURE with --at-least or --under, or --where EXPRESSION")
    words = set(options.words.split(","))
    pairs = collections.OrderedDict()
    for key, (expected, acted, heard) in before.items():
        taken = []
        for part in heard.split(" | "):
            utterance = part.rsplit(" / ", 1)[-1]
            for match in WORD.finditer(part):
                word, margin, confidence, rest = match.group(1), match.group(2), float(match.group(3)), match.group(4)
                if confidence < options.threshold:
                    continue
                if options.where is not None:
                    try:
                        refused = bool(eval(rule, {"__builtins__": {}}, names(word, margin, confidence, rest, utterance)))
                    except (NameError, TypeError) as error:
                        sys.exit(f"bench-diff: --where: {error}: {options.where}")
                else:
                    value = feature(margin + rest, options.refuse)
                    refused = word in words and value is not None and (
                        value >= options.at_least if options.at_least is not None else value < options.under)
                taken.append((word, refused))
        simulated = acted
        if " ".join(word for word, _ in taken) == acted:
            simulated = " ".join(word for word, refused in taken if not refused)
        pairs[key] = (expected, acted, simulated, heard)
    report(pairs, options.show)


if __name__ == "__main__":
    main()
