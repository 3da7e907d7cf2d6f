#!/usr/bin/env python3
"""Lists the mutants the kit did not kill, from PIT's mutations.csv, with the rule each one points to.

Usage: benchmarks/pit-survivors.py [MAIN_CSV [CONFIG_CSV ...]] > survivors.md

MAIN_CSV is the main run (every class, the reference's default settings; default
tck/target/pit-reports/mutations.csv). Each CONFIG_CSV is a run of the same code in another provider
configuration (the `mutation` profile's scoped executions, e.g. tck/target/pit-reports/ndk-1.1/mutations.csv).
The mutants counted are those of the main run; the configuration runs are scoped subsets. A mutant counts as
killed when any run detected it (a configuration run's rows not in the main run are reported on stderr and not
counted). With one CSV the output is that run's score and survivors, as before.

A mutant is identified by class, mutator, method and line (PIT's CSV has no description column); when several
rows share these, the n-th of them in one run is matched with the n-th in another (PIT lists a class's mutants
in the order its mutation engine found them, which is the same in every run of the same code).
Detected, as PIT counts it in its score: KILLED, TIMED_OUT, MEMORY_ERROR, RUN_ERROR, NON_VIABLE.

The methods PIT does not mutate (code no conformance kit can check: equivalent, the provider's choice, outside the
catalog, plumbing) are listed at the end, read from the mutation run's list
(benchmarks/pit-exclusions/src/main/resources/org/ndktck/pit/not-mutated.txt), with the scope and reason of each.

The rule of a mutant is taken from the Javadoc of the method it sits in (rule IDs such as MR-FR-3),
else from the nearest Javadoc above its line; the source line is quoted for the reader.
"""
import csv
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "reference-impl/src/main/java"
RULE = re.compile(r"\b(?:[A-Z]{2,5}-)+(?:\d+|TOKEN(?:-PD)?)\b")
KILLED = {"KILLED", "TIMED_OUT", "MEMORY_ERROR", "RUN_ERROR", "NON_VIABLE"}


def label(path):
    """A short name of a run: the report directory of a mutations.csv, else the file name without -mutations.csv."""
    p = Path(path)
    if p.name == "mutations.csv":
        return p.parent.name
    name = p.name[:-4] if p.name.endswith(".csv") else p.name
    return name[:-len("-mutations")] if name.endswith("-mutations") else name


def read_run(path):
    """The rows of one mutations.csv as {mutant key: row}; the key is (class, mutator, method, line, n)."""
    rows = {}
    seen = Counter()
    with open(path, newline="") as f:
        for r in csv.reader(f):
            if len(r) < 6:
                continue
            # several mutants may share class, mutator, method and line: the n-th of them in each run is one mutant
            base = (r[1], r[2], r[3], r[4])
            seen[base] += 1
            rows[base + (seen[base],)] = r
    return rows


def score(statuses):
    killed = sum(1 for s in statuses if s in KILLED)
    return killed, (100 * killed / len(statuses) if statuses else 0.0)


def source(cls):
    f = SRC / (cls.replace(".", "/").split("$")[0] + ".java")
    return f.read_text().split("\n") if f.exists() else []


def rule_for(lines, line):
    """Rule IDs in the Javadoc nearest above the line (the method's, or the field's)."""
    i = min(line - 1, len(lines))
    while i > 0:
        i -= 1
        if lines[i].strip().endswith("*/"):
            j = i
            while j > 0 and "/**" not in lines[j]:
                j -= 1
            ids = sorted(set(RULE.findall(" ".join(lines[j:i + 1]))))
            return ", ".join(ids) if ids else "-"
    return "-"


NOT_MUTATED = ROOT / "benchmarks/pit-exclusions/src/main/resources/org/ndktck/pit/not-mutated.txt"


def not_mutated():
    """(class, member, scope, why) of every entry of the mutation run's list of what PIT does not mutate."""
    found = []
    for ln in NOT_MUTATED.read_text().splitlines():
        if not ln.strip() or ln.startswith("#"):
            continue
        cls, member, scope, why = (f.strip() for f in ln.split(" | ", 3))
        name = cls.rsplit(".", 1)[-1]
        member = name if member == "*" else member.split("(", 1)[0]
        found.append((name, member, scope, why))
    return found


def main():
    paths = sys.argv[1:] or [str(ROOT / "tck/target/pit-reports/mutations.csv")]
    if any(p in ("-h", "--help") for p in paths):
        print(__doc__.strip())
        return 0
    for p in paths:
        if not Path(p).is_file():
            print(f"pit-survivors: no such file: {p}", file=sys.stderr)
            return 2
    main_run = read_run(paths[0])
    if not main_run:
        print(f"pit-survivors: no mutants in {paths[0]}", file=sys.stderr)
        return 2
    configs = [(label(p), read_run(p)) for p in paths[1:]]

    # combined status of each mutant of the main run: detected when any run detected it
    status = {k: r[5] for k, r in main_run.items()}
    killer = {}  # mutants the main run did not detect but a configuration run did: key -> run label
    for name, run in configs:
        extra = [k for k in run if k not in main_run]
        if extra:
            print(f"pit-survivors: {len(extra)} mutants of {name} are not in the main run (different code?); "
                  f"not counted, e.g. {extra[0][:4]}", file=sys.stderr)
        for k, r in run.items():
            if k in main_run and status[k] not in KILLED and r[5] in KILLED:
                status[k] = r[5]
                killer[k] = name

    counts = Counter(status.values())
    killed, pct = score(list(status.values()))
    print(f"Mutants: {len(status)}; killed {killed} ({pct:.1f} %); "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if configs:
        print()
        print("| run | mutants | killed | score | killed only by this run |")
        print("|---|---:|---:|---:|---:|")
        k0, p0 = score([r[5] for r in main_run.values()])
        print(f"| {label(paths[0])} (main) | {len(main_run)} | {k0} | {p0:.1f} % | - |")
        for name, run in configs:
            kc, pc = score([r[5] for r in run.values()])
            gained = sum(1 for v in killer.values() if v == name)
            print(f"| {name} | {len(run)} | {kc} | {pc:.1f} % | {gained} |")
        print(f"| combined | {len(status)} | {killed} | {pct:.1f} % | {len(killer)} |")
    print()
    print("| class | method | line | mutator | status | rule (from the Javadoc) | source line |")
    print("|---|---|---:|---|---|---|---|")
    cache = {}
    for k in sorted(status, key=lambda k: (k[0], int(k[3]), k[1], k[4])):
        if status[k] in KILLED:
            continue
        r = main_run[k]
        st = r[5]
        # the statuses of the configuration runs that mutated it too (all undetected here)
        others = [f"{name}: {run[k][5]}" for name, run in configs if k in run]
        if others:
            st += " (" + "; ".join(others) + ")"
        cls = r[1]
        lines = cache.setdefault(cls, source(cls))
        ln = int(r[4])
        text = lines[ln - 1].strip().replace("|", "\\|") if 0 < ln <= len(lines) else ""
        mut = r[2].rsplit(".", 1)[-1].replace("Mutator", "")
        print(f"| {cls.rsplit('.', 1)[-1]} | {r[3]} | {ln} | {mut} | {st} | {rule_for(lines, ln)} | `{text[:90]}` |")
    marks = not_mutated()
    if marks:
        print()
        print(f"## Not mutated: {len(marks)} methods and types listed in not-mutated.txt ("
              + ", ".join(f"{k} {v}" for k, v in sorted(Counter(m[2] for m in marks).items())) + ")")
        print()
        print("| class | method or type | scope | why |")
        print("|---|---|---|---|")
        for cls, member, scope, why in marks:
            print(f"| {cls} | {member} | {scope} | {why.replace('|', '/')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
