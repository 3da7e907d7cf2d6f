#!/usr/bin/env python3
"""Lists the mutants the kit did not kill, from PIT's mutations.csv, with the rule each one points to.

Usage: benchmarks/pit-survivors.py [MUTATIONS_CSV ...] > survivors.md
Several CSVs (one per provider configuration) count a mutant killed when any run killed it.
The rule of a mutant is taken from the Javadoc of the method it sits in (rule IDs such as MR-FR-3),
else from the nearest Javadoc above its line; the source line is quoted for the reader.
"""
import csv
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "reference-impl/src/main/java"
RULE = re.compile(r"\b(?:[A-Z]{2,5}-)+(?:\d+|TOKEN(?:-PD)?)\b")
KILLED = {"KILLED", "TIMED_OUT", "MEMORY_ERROR", "RUN_ERROR"}


def load(paths):
    best = {}
    for p in paths:
        seen = Counter()
        for r in csv.reader(open(p)):
            if len(r) < 6:
                continue
            # several mutants may share class, mutator, method and line: the n-th of them in each run is one mutant
            base = (r[1], r[2], r[3], r[4])
            seen[base] += 1
            key = base + (seen[base],)
            if key not in best or r[5] in KILLED:
                best[key] = r
    return list(best.values())


def source(cls):
    f = SRC / (cls.replace(".", "/").split("$")[0] + ".java")
    return f.read_text().split("\n") if f.exists() else []


def rule_for(lines, line):
    """Rule IDs in the Javadoc nearest above the line (the method's, or the field's)."""
    i = line - 1
    while i > 0:
        i -= 1
        if lines[i].strip().endswith("*/"):
            j = i
            while j > 0 and "/**" not in lines[j]:
                j -= 1
            ids = sorted(set(RULE.findall(" ".join(lines[j:i + 1]))))
            return ", ".join(ids) if ids else "-"
    return "-"


def main():
    paths = sys.argv[1:] or [str(ROOT / "tck/target/pit-reports/mutations.csv")]
    rows = load(paths)
    status = Counter(r[5] for r in rows)
    killed = sum(status[s] for s in KILLED)
    print(f"Mutants: {len(rows)}; killed {killed} ({100 * killed / len(rows):.1f} %); "
          + ", ".join(f"{k} {v}" for k, v in sorted(status.items())))
    print()
    print("| class | method | line | mutator | status | rule (from the Javadoc) | source line |")
    print("|---|---|---:|---|---|---|---|")
    cache = {}
    for r in sorted(rows, key=lambda r: (r[1], int(r[4]), r[2])):
        if r[5] in KILLED:
            continue
        cls = r[1]
        lines = cache.setdefault(cls, source(cls))
        ln = int(r[4])
        text = lines[ln - 1].strip().replace("|", "\\|") if 0 < ln <= len(lines) else ""
        mut = r[2].rsplit(".", 1)[-1].replace("Mutator", "")
        print(f"| {cls.rsplit('.', 1)[-1]} | {r[3]} | {ln} | {mut} | {r[5]} | {rule_for(lines, ln)} | `{text[:90]}` |")


if __name__ == "__main__":
    main()
