#!/usr/bin/env python3
"""Writes grammars/directme.gram: commands in their natural phrasing, and decoys.

<commands> is what a command utterance may be: directions with optional carrier words
("move the ninja up please", "down then left"). <others> is everything else the grammar
knows: near-miss words (drown for down, lift for left, cup for up ...), which the
interpreter can rescue from alternates, and the most frequent short English words
(grammars/common-words.txt), so speech that is not a command has somewhere to go.
The public rule is either, in any order; the recognizer's final pass decodes each
utterance with <commands> and with <others> and weighs the two.

Usage: scripts/make-grammar.py [--common N] [--out FILE]
"""
import argparse, os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

COMMANDS = ["up", "down", "left", "right"]
CARRIERS = ["move", "go", "please", "now", "the", "ninja", "then", "and"]
# Near-misses of the commands. "write" sounds exactly like "right" and is left out.
NEAR_MISSES = ["cup", "pup", "op", "hop", "top", "drown", "town", "brown", "crown", "gown",
               "round", "lift", "laughed", "loft", "lived", "light", "night", "bright", "bite", "kite"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--common", type=int, default=500, help="how many common words to add as decoys")
    parser.add_argument("--command-weight", default="1e-10",
                        help="JSGF weight of each direction and lead word: a cost per command that keeps noise from being heard as extra commands")
    parser.add_argument("--out", default=os.path.join(ROOT, "grammars", "directme.gram"))
    args = parser.parse_args()

    common = []
    with open(os.path.join(ROOT, "grammars", "common-words.txt")) as f:
        for line in f:
            word = line.strip()
            if word and not word.startswith("#"):
                common.append(word)
    taken = set(COMMANDS)
    others = []
    for word in NEAR_MISSES + CARRIERS + common[: args.common]:
        if word not in taken:
            taken.add(word)
            others.append(word)

    def wrap(words, indent):
        lines, line = [], ""
        for word in words:
            piece = word if not line else " | " + word
            if len(line) + len(piece) > 88:
                lines.append(line)
                line = "| " + word
            else:
                line += piece
        lines.append(line)
        return ("\n" + " " * indent).join(lines)

    w = args.command_weight
    lines = [
        "#JSGF V1.0;",
        "",
        "/*",
        " * DirectMe's command grammar, written by scripts/make-grammar.py; edit that, not this.",
        " *",
        " * <commands> is a command utterance: directions with optional carrier words.",
        f" * <others> is everything else the grammar knows: {len(NEAR_MISSES)} near-misses of the directions",
        f" * and common short English words, {len(others)} words in all. The recognizer's final pass",
        " * decodes an utterance with each and weighs the two; the public rule (either, in any",
        " * order) gives the live partial transcript. The weights on directions and leads are a",
        f" * cost per command ({w}), so that noise around a word is not heard as more commands.",
        " */",
        "grammar directme;",
        "",
        "public <utterance> = (<commands> | <others>)+;",
        "",
        "<commands> = <command> ([then | and] <command>)*;",
        "<command> = [<lead>] <direction> [<trail>];",
        f"<lead> = /{w}/ move [the ninja] | /{w}/ go | /{w}/ please [move];",
        "<trail> = now | please;",
        "<direction> = " + " | ".join(f"/{w}/ {c}" for c in COMMANDS) + ";",
        "",
        "<others> = <other>+;",
        "<other> = " + wrap(others, 10) + ";",
        "",
    ]
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.out}: {len(COMMANDS)} commands, {len(others)} other words")


if __name__ == "__main__":
    main()
