#!/usr/bin/env python3
"""Times cold `ndk-tck run` commands for the budgets of BENCHMARKS.md ("Budgets of a kit run").

Each run is a fresh command (a new JVM, as a user or a CI job runs it). For each run it prints the 1-minute load
average at its start, the whole command's wall time, the runner's own wall time (report.json durationMillis), the
time from the command to the first property started (report.json startedAt plus the earliest property start; for
--jobs > 1 worker 1's report), the CPU time of the command and its children, and the exit code; then the
median of each column. A measurement program, not a test: it judges nothing.

  benchmarks/kit-budgets.py [--runs N] [--cmd 'COMMAND'] [RUN OPTIONS]

COMMAND defaults to './ndk-tck run'; RUN OPTIONS go after it (e.g. --profile smoke --jobs 2). The report goes
to a fresh temporary directory per run.
"""
import datetime
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time


def first_property_start(report_dir):
    worker1 = os.path.join(report_dir, "workers", "1", "report.json")
    path = worker1 if os.path.exists(worker1) else os.path.join(report_dir, "report.json")
    with open(path) as f:
        r = json.load(f)
    started = datetime.datetime.fromisoformat(r["startedAt"].replace("Z", "+00:00")).timestamp()
    starts = [p["finishedAtMillis"] - p["durationMillis"] for p in r.get("properties", []) if p.get("finishedAtMillis")]
    return started + (min(starts) / 1000.0 if starts else 0.0)


def main(argv):
    runs = 5
    cmd = "./ndk-tck run"
    rest = []
    i = 0
    while i < len(argv):
        if argv[i] == "--runs":
            runs = int(argv[i + 1])
            i += 2
        elif argv[i] == "--cmd":
            cmd = argv[i + 1]
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    rows = []
    print("| run | load (1 min) at start | whole command | runner's wall time | first property started | CPU (user+sys) | exit |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in range(1, runs + 1):
        with open("/proc/loadavg") as f:
            load = float(f.read().split()[0])
        d = tempfile.mkdtemp(prefix="ndk-tck-budget-")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.time()
        p = subprocess.run(shlex.split(cmd) + rest + ["--quiet", "--report-dir", d],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.time() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        try:
            with open(os.path.join(d, "report.json")) as f:
                runner = json.load(f)["durationMillis"] / 1000.0
            first = first_property_start(d) - t0
        except (OSError, ValueError, KeyError):
            runner, first = float("nan"), float("nan")
        rows.append((load, wall, runner, first, cpu))
        print(f"| {n} | {load:.2f} | {wall:.1f} s | {runner:.1f} s | {first:.1f} s | {cpu:.1f} s | {p.returncode} |", flush=True)
        if p.returncode not in (0, 1):
            sys.stderr.write(p.stderr)
    med = [statistics.median(c) for c in zip(*rows)]
    print(f"| median | {med[0]:.2f} | {med[1]:.1f} s | {med[2]:.1f} s | {med[3]:.1f} s | {med[4]:.1f} s | |")


if __name__ == "__main__":
    main(sys.argv[1:])
