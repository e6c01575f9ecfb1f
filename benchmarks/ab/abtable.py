#!/usr/bin/env python3
"""abtable.py OUT_DIR LABEL_A LABEL_B

Reads the outputs of `compare --scenarios=steps3` runs saved as OUT_DIR/<label>-<i>.txt and prints,
for each client count, Durable's and DBOS's workflows/s, p50 and p99 of every run of A and of B,
the median across runs, and the B/A ratio of the medians. Also writes OUT_DIR/results.csv.

A run's numbers come from the closing table the harness prints (ComparisonReport.printTable:
each engine's rounds of that run pooled). If a run has no table (it failed part-way), its
per-measurement lines ("round N:") are pooled instead: workflows/s from the summed counts and
times; p50/p99 cannot be pooled from those lines, so the median of the rounds' values is used,
and the run is flagged.
"""
import csv
import os
import re
import statistics
import sys

SCEN = re.compile(r"^3 steps, concurrency (\d+)$")
# | 3 steps, concurrency 1 | Durable | 218 | 316 | 2.83 | 9.27 | 4.04 | 4.00 | 3.35 + 1.19 |  |
TABLE = re.compile(r"^\|\s*(3 steps, concurrency \d+)\s*\|\s*(Durable|DBOS)\s*\|\s*([\d,.]+)\s*\|\s*([\d,.]+)\s*\|"
                   r"\s*([\d,.]+)\s*\|\s*([\d,.]+)\s*\|\s*([\d,.]+)\s*\|\s*([\d,.]+)\s*\|")
#   3 steps, concurrency 1    Durable  round 1:     218 workflows      316/s  p50    2.83 ms  p99    9.27 ms   4.04 tx/wf ...
ROUND = re.compile(r"^\s+(3 steps, concurrency \d+)\s+(Durable|DBOS)\s+round (\d+):\s+([\d,]+) workflows\s+([\d,.]+)/s"
                   r"\s+p50\s+([\d,.]+) ms\s+p99\s+([\d,.]+) ms\s+([\d,.]+) tx/wf")
ENGINES = ("Durable", "DBOS")
METRICS = (("wf/s", "wfs"), ("p50 ms", "p50"), ("p99 ms", "p99"))


def num(s):
    return float(s.replace(",", ""))


def parse(path):
    """{(clients, engine): {"wfs","p50","p99","tx","count","src"}}, header info."""
    table, rounds, info = {}, {}, {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = TABLE.match(line)
            if m:
                c = int(SCEN.match(m.group(1)).group(1))
                table[(c, m.group(2))] = dict(count=num(m.group(3)), wfs=num(m.group(4)), p50=num(m.group(5)),
                                              p99=num(m.group(6)), tx=num(m.group(7)), src="table")
                continue
            m = ROUND.match(line)
            if m:
                c = int(SCEN.match(m.group(1).strip()).group(1))
                rounds.setdefault((c, m.group(2)), []).append(dict(count=num(m.group(4)), wfs=num(m.group(5)),
                                                                    p50=num(m.group(6)), p99=num(m.group(7)),
                                                                    tx=num(m.group(8))))
                continue
            for key in ("load average at start", "load average at end", "total time", "machine"):
                if line.startswith(key):
                    info[key] = line[len(key):].strip(" :")
            if line.startswith("PROBLEMS:"):
                info["problems"] = True
    result = dict(table)
    for key, rs in rounds.items():
        if key not in result:
            # no table line: pool the rounds (time of a round = count / rate)
            count = sum(r["count"] for r in rs)
            secs = sum(r["count"] / r["wfs"] for r in rs if r["wfs"] > 0)
            result[key] = dict(count=count, wfs=count / secs if secs else float("nan"),
                               p50=statistics.median(r["p50"] for r in rs), p99=statistics.median(r["p99"] for r in rs),
                               tx=statistics.median(r["tx"] for r in rs), src="rounds")
        result[key]["rounds"] = rs
    return result, info


def runs_of(out_dir, label):
    pat = re.compile(r"^" + re.escape(label) + r"-(\d+)\.txt$")
    found = []
    for name in os.listdir(out_dir):
        m = pat.match(name)
        if m:
            found.append((int(m.group(1)), os.path.join(out_dir, name)))
    return sorted(found)


def fmt(v, metric):
    if v is None or v != v:
        return "-"
    return f"{v:.0f}" if metric == "wfs" else f"{v:.2f}"


def main():
    out_dir, la, lb = sys.argv[1], sys.argv[2], sys.argv[3]
    data = {}  # label -> [(i, parsed, info)]
    for label in (la, lb):
        data[label] = [(i,) + parse(p) for i, p in runs_of(out_dir, label)]
        if not data[label]:
            print(f"no runs {out_dir}/{label}-<i>.txt", file=sys.stderr)
    clients = sorted({c for label in data for _, parsed, _ in data[label] for (c, _) in parsed})
    n = max(len(data[la]), len(data[lb]), 1)
    width = max(8, max(len(la), len(lb)) + 10)

    rows = []
    for label in (la, lb):
        for i, parsed, info in data[label]:
            for (c, engine), v in sorted(parsed.items()):
                rows.append(dict(label=label, run=i, clients=c, engine=engine, workflows=v["count"], wfs=v["wfs"],
                                 p50=v["p50"], p99=v["p99"], tx_per_wf=v["tx"], source=v["src"],
                                 load_start=info.get("load average at start", ""),
                                 total_time=info.get("total time", "")))
    if rows:
        with open(os.path.join(out_dir, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)

    print(f"A = {la} ({len(data[la])} runs), B = {lb} ({len(data[lb])} runs); each run's value = that run's "
          f"table line (its rounds pooled); med = median across runs")
    for label in (la, lb):
        for i, parsed, info in data[label]:
            flags = []
            if not parsed:
                flags.append("NO NUMBERS")
            if any(v["src"] == "rounds" for v in parsed.values()):
                flags.append("no table, rounds pooled")
            if info.get("problems"):
                flags.append("PROBLEMS reported")
            print(f"  {label}-{i}: load at start {info.get('load average at start', '?')}, "
                  f"total {info.get('total time', '?')}" + (f"  [{'; '.join(flags)}]" if flags else ""))
    med = {}
    for c in clients:
        print()
        print(f"3 steps, {c} client{'s' if c != 1 else ''}")
        head = f"  {'engine':<8} {'build':<{width}} {'metric':<7}" + "".join(f"{'run ' + str(k + 1):>9}" for k in range(n)) \
            + f"{'med':>9}"
        print(head)
        for engine in ENGINES:
            for label in (la, lb):
                for title, key in METRICS:
                    vals = [parsed.get((c, engine), {}).get(key) for _, parsed, _ in data[label]]
                    good = [v for v in vals if v is not None and v == v]
                    m = statistics.median(good) if good else None
                    med[(c, engine, label, key)] = m
                    tag = "A " + label if label == la else "B " + label
                    cells = "".join(f"{fmt(v, key):>9}" for v in vals) + " " * 9 * (n - len(vals))
                    print(f"  {engine:<8} {tag:<{width}} {title:<7}{cells}{fmt(m, key):>9}")
        ratios = []
        for engine in ENGINES:
            parts = []
            for title, key in METRICS:
                a, b = med.get((c, engine, la, key)), med.get((c, engine, lb, key))
                parts.append(f"{title.split()[0]} {b / a:.3f}x" if a and b else f"{title.split()[0]} -")
            ratios.append(f"{engine}: " + ", ".join(parts))
        print("  B/A of medians  " + "   |   ".join(ratios))
        # DBOS ran in the same processes: Durable's B/A over DBOS's B/A takes out what moved both
        parts = []
        for title, key in METRICS:
            try:
                r = (med[(c, "Durable", lb, key)] / med[(c, "Durable", la, key)]) / \
                    (med[(c, "DBOS", lb, key)] / med[(c, "DBOS", la, key)])
                parts.append(f"{title.split()[0]} {r:.3f}x")
            except (KeyError, TypeError, ZeroDivisionError):
                parts.append(f"{title.split()[0]} -")
        print("  Durable B/A over DBOS B/A (same-run control): " + ", ".join(parts))
    print()
    print(f"(all numbers: {os.path.join(out_dir, 'results.csv')})")


if __name__ == "__main__":
    main()
