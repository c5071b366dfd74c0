"""One line for `directme score --json` of a held-out set, read on stdin.

    directme score LABELS --json | python3 scripts/held-out-summary.py NAME

With commands among the recordings: NAME, the share of commands right (and of the "up"s, the
word background sound takes most) and the share of other recordings moving the ninja; without:
the share moving the ninja. Read by scripts/sound-checks.sh's `summarize` (held-out-babble.sh,
held-out-noise.sh, held-out-codecs.sh).
"""
import json
import sys

name = sys.argv[1]
d = json.load(sys.stdin)
commands = d["single_commands"]
items = sum(v["items"] for v in commands.values())
if items:
    right = sum(v["right"] for v in commands.values())
    up = commands["up"]
    print("%s: commands right %.1f%% (up %d/%d), other words moving the ninja %.1f%% (%d recordings)" % (
        name, 100 * right / items, up["right"], up["items"], 100 * d["false_alarm_rate"], d["recordings"]))
else:
    print("%s: %.1f%% move the ninja (%d recordings)" % (name, 100 * d["false_alarm_rate"], d["recordings"]))
