#!/usr/bin/env python3
"""What was already measured: the ideas the model README records, found by their words.

  scripts/tried.py WORD... [--all] [--file README]

Every idea the model README (models/en-us-directme/README.md) writes up is a bullet whose first
words are bold ("- **A release after "up"'s vowel** ..."), inside a section headed with its date
and stop ("## Measured, not used (2026-12-01, stop 80)"). This prints, for each such idea whose
text holds every WORD (case-insensitive; a WORD may be a Python regular expression), its stop,
its line in the README, its title and its outcome: the first sentence of its text that gives
items gained and lost, or says "not used", "not shipped" or "landed". So before trying an idea:

  scripts/tried.py reverb             # every idea that mentions reverberation
  scripts/tried.py '"up"' release     # "up"'s release, tried at stops 63, 81, 111, ...
  scripts/tried.py --all >/dev/null   # how many ideas are written up (the count goes to stderr)

The README stays the record; this only finds the place to read. Standard library only (an
analysis aid, not part of the product).
"""
import argparse
import re
import sys
from pathlib import Path

HEADING = re.compile(r"^#{2,3} (.*)$")
STOP = re.compile(r"stop (\d+)")
IDEA = re.compile(r"^- \*\*(.+?)\*\*")
COUNTS = re.compile(r"\d+ (?:bench )?(?:items? )?gained(?:,| /) \d+ lost", re.IGNORECASE)
VERDICT = re.compile(r"not used|not shipped|not built|not landed|not pursued|shipped at|landed", re.IGNORECASE)


def ideas(lines):
    """(stop, line number, title, text) for each bold-titled bullet at the left margin, its text
    (its own bullets included) running to the next bullet at the margin or the next heading."""
    stop = "?"
    current = None
    for number, line in enumerate(lines, 1):
        heading = HEADING.match(line)
        idea = IDEA.match(line)
        if heading or idea or (current and line.startswith("- ")):
            if current:
                yield current
            current = None
        if heading:
            found = STOP.search(heading.group(1))
            stop = found.group(1) if found else "?"
        if idea:
            current = [stop, number, idea.group(1).strip(), line]
        elif current:
            current[3] += " " + line.strip()
    if current:
        yield current


def outcome(text):
    """The first sentence of `text` that counts items gained and lost, else the first that gives a
    verdict ("" when none does)."""
    sentences = re.split(r"(?<=[.:;])\s+", text)
    for pattern in (COUNTS, VERDICT):
        for sentence in sentences:
            if pattern.search(sentence):
                return re.sub(r"\s+", " ", sentence).strip().removeprefix("- ")[:200]
    return ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("words", nargs="*", help="words (or regular expressions) the idea's text must all hold")
    parser.add_argument("--all", action="store_true", help="every idea, whatever its words")
    parser.add_argument("--file", default=str(Path(__file__).resolve().parent.parent / "models/en-us-directme/README.md"))
    arguments = parser.parse_args()
    if not arguments.words and not arguments.all:
        parser.error("give words to look for, or --all")
    try:
        lines = Path(arguments.file).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        sys.exit(f"tried: {arguments.file}: cannot read ({error.strerror})")
    try:
        patterns = [re.compile(word, re.IGNORECASE) for word in arguments.words]
    except re.error as error:
        sys.exit(f"tried: '{error.pattern}': not a regular expression ({error.msg})")
    found = 0
    for stop, number, title, text in ideas(lines):
        if all(pattern.search(text) for pattern in patterns):
            found += 1
            result = outcome(text)
            print(f"stop {stop:>3}  line {number:>5}  {title}" + (f"\n{'':22}{result}" if result else ""))
    print(f"{found} idea(s) in {arguments.file}", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # `| head`
        sys.stderr.close()
