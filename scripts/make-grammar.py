#!/usr/bin/env python3
"""Writes grammars/directme.gram: the commands, and a garbage rule for everything else.

<commands> is what a command utterance may be: directions with optional carrier words
("move the ninja up please", "down then left"). <garbage> is one other word, from
grammars/common-words.txt (the most frequent English words). The recognizer's final pass
finds the command words with <commands>, then decodes each one's stretch of audio (the
whole utterance for one command; halfway to the command words before and after it in a
sequence; without the carrier words said around it) with <direction> and with
<garbage>, every senone scored in every frame; the word's margin is how much better the
command explains the stretch. A lone command word drawn out over a long sound (a sentence
read as one long "right") is also weighed against <garbage_words>, several other words.
The detector (models/*/detector.json, learned by `directme tune`) turns margins into
confidences.

Words that sound exactly like a command (write, rite) are kept out of <garbage>; words a
phone away (let, done, of) stay: without them other speech is taken for commands more
often than commands are lost to them; frequent words that took more commands than they
kept other speech out ("found" for "down", "live" for "left") are left out of the list
itself (its comments give the figures). The commands and carriers are the same as
Sources/DirectMeCore/Interpreter.swift's Vocabulary.standard (a test checks it).

Usage: scripts/make-grammar.py [--out FILE]
"""
import argparse, os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

COMMANDS = ["up", "down", "left", "right"]
CARRIERS = ["move", "go", "please", "now", "the", "ninja", "then", "and"]

DICTIONARY = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"


def pronunciations(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 2 or fields[0].startswith("#"):
                continue
            word = fields[0].split("(")[0]
            table.setdefault(word, []).append(fields[1:])
    return table


# The grammar's word for the acoustic model's non-speech phone (grammars/directme.dict).
NONSPEECH = "nonspeech"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "grammars", "directme.gram"))
    parser.add_argument("--dict", default=DICTIONARY)
    args = parser.parse_args()

    table = pronunciations(args.dict)
    # Words the main dictionary lacks, and more ways of saying its words: the grammar's
    # companion dictionary, which the recognizer reads beside it.
    for word, phones in pronunciations(os.path.join(ROOT, "grammars", "directme.dict")).items():
        table.setdefault(word, []).extend(phones)
    words, left_out, sentence_words = [], [], []
    with open(os.path.join(ROOT, "grammars", "common-words.txt"), encoding="utf-8") as f:
        for line in f:
            word = line.strip()
            if not word or word.startswith("#"):
                continue
            # "+word": a word of several-words readings only (<garbage_words>), not one alone.
            sentence_only = word.startswith("+")
            word = word.lstrip("+")
            # A word listed twice (plain or "+") is taken once, in the rule of its first line.
            if word in words or word in sentence_words:
                continue
            if word not in table:
                raise SystemExit(f"common-words.txt: '{word}' is not in {args.dict} nor grammars/directme.dict")
            if sentence_only:
                sentence_words.append(word)
                continue
            if word in COMMANDS or any(p in [q for c in COMMANDS for q in table[c]] for p in table[word]):
                left_out.append(word)
                continue
            words.append(word)
    for carrier in CARRIERS:
        if carrier not in words:
            words.append(carrier)

    def wrap(items, indent):
        lines, line = [], ""
        for item in items:
            piece = item if not line else " | " + item
            if len(line) + len(piece) > 88:
                lines.append(line)
                line = "| " + item
            else:
                line += piece
        lines.append(line)
        return ("\n" + " " * indent).join(lines)

    lines = [
        "#JSGF V1.0;",
        "",
        "/*",
        " * DirectMe's grammar, written by scripts/make-grammar.py from grammars/common-words.txt;",
        " * edit those, not this.",
        " *",
        " * <commands> is a command utterance: directions with optional carrier words.",
        f" * <garbage> is one other word of {len(words)} frequent words (carriers included; homophones of",
        f" * commands left out: {', '.join(left_out) or 'none'}). The final pass decodes each command",
        " * word's stretch of audio with <direction> and with <garbage> and compares them; when",
        " * carriers were heard around the command, with <carried_direction> and <carried_garbage>;",
        " * a lone command word drawn out over a long sound, also with <garbage_words>; command",
        " * words said without a pause between them, with <direction_words> against <garbage_words>.",
        f" * <sentence_word> ({len(sentence_words)} words) are other words of several-words readings only:",
        " * alone, they took commands from people more often than they explained other speech.",
        " * <garbage_speech> is <garbage> without \"nonspeech\" (the non-speech phone): a command word",
        " * drawn out by a room's reverberation, which that phone explains, is weighed against it.",
        " */",
        "grammar directme;",
        "",
        "public <utterance> = <commands> | <garbage>;",
        "",
        "<commands> = <command> ([then | and] <command>)*;",
        "<command> = [<lead>] <direction> [<trail>];",
        "<lead> = [please] (move [the ninja] | go) | please;",
        "<trail> = now | please;",
        "<direction> = " + " | ".join(COMMANDS) + ";",
        "<carried_direction> = [<lead>] <direction> [<trail>];",
        "<carried_garbage> = [<lead>] <garbage> [<trail>];",
        "<garbage_words> = (<garbage> | <sentence_word>)+;" if sentence_words else "<garbage_words> = <garbage>+;",
        "<direction_words> = [<lead>] <direction> ([then | and] <direction>)+ [<trail>];",
        "",
        "",

        "<garbage> = " + wrap(words, 12) + ";",
        "",
    ]
    if NONSPEECH in words:
        lines[-1:-1] = ["<garbage_speech> = " + wrap([w for w in words if w != NONSPEECH], 12) + ";"]
    if sentence_words:
        lines[-1:-1] = ["<sentence_word> = " + wrap(sentence_words, 18) + ";"]
        lines.append("")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.out}: {len(COMMANDS)} commands, {len(words)} other words")


if __name__ == "__main__":
    main()
