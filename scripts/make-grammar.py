#!/usr/bin/env python3
"""Writes grammars/directme.gram: the four directions, carrier words, and decoys.

Decoys give speech that is not a command somewhere to go: near-miss words (drown for down,
lift for left, cup for up ...), which the interpreter can rescue from alternates, and the
most frequent short English words (grammars/common-words.txt). Every word is an alternative
of one loop, so "move the ninja up", "down down right" and "turn on the light" all parse;
JSGF weights set how likely each class is, which is how far DirectMe leans towards
hearing a command. (sphinxbase applies weights on words, not on rule references, so the
weights are written on every word.)

Usage: scripts/make-grammar.py [--common N] [--command-weight W] [--carrier-weight W]
                               [--decoy-weight W] [--out FILE]
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
    parser.add_argument("--common", type=int, default=300, help="how many common words to add as decoys")
    parser.add_argument("--command-weight", default="1")
    parser.add_argument("--carrier-weight", default="1")
    parser.add_argument("--decoy-weight", default="1e-10")
    parser.add_argument("--out", default=os.path.join(ROOT, "grammars", "directme.gram"))
    args = parser.parse_args()

    common = []
    with open(os.path.join(ROOT, "grammars", "common-words.txt")) as f:
        for line in f:
            word = line.strip()
            if word and not word.startswith("#"):
                common.append(word)
    taken = set(COMMANDS) | set(CARRIERS)
    decoys = []
    for word in NEAR_MISSES + common[: args.common]:
        if word not in taken:
            taken.add(word)
            decoys.append(word)

    def alternatives(words, weight):
        return [f"/{weight}/ {w}" for w in words]

    items = (alternatives(COMMANDS, args.command_weight) + alternatives(CARRIERS, args.carrier_weight)
             + alternatives(decoys, args.decoy_weight))
    lines = [
        "#JSGF V1.0;",
        "",
        "/*",
        " * DirectMe's command grammar, written by scripts/make-grammar.py; edit that, not this.",
        f" * Directions, carrier words, and {len(decoys)} decoys ({len(NEAR_MISSES)} near-misses and common words),",
        f" * weighted commands {args.command_weight}, carriers {args.carrier_weight}, decoys {args.decoy_weight}.",
        " */",
        "grammar directme;",
        "",
        "public <utterance> = <word>+;",
        "",
        "<word> = " + "\n       | ".join(items) + ";",
        "",
    ]
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.out}: {len(COMMANDS)} commands, {len(CARRIERS)} carriers, {len(decoys)} decoys")


if __name__ == "__main__":
    main()
