#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Paired comparison of interleaved runs: medians and a distribution-free
confidence interval for the median ratio of each kernel to the first.

usage: scripts/report/paired-ci.py [--json] FILE

FILE has one line per measurement, "ROUND LABEL VALUE", every label once
per round; the first label seen is the reference.  For each other label
the ratio VALUE/reference is taken within each round, and the interval is
the sign-test interval of the median ratio (order statistics; no
assumption about the shape of the noise), at the highest confidence the
number of rounds allows up to 95 % (5 rounds allow 94 %, 6 allow 97 %).
A ratio is "resolved" when its interval excludes 1.

Prints a Markdown table and exits 1 when fewer than 5 complete rounds
were given (no interval can say anything then).  With --json, prints
{"reference", "rounds", "kernels": [{"label", "median", "ratio",
"low", "high", "coverage"}]} (ratios, not percentages) and exits 0 with
fewer rounds too, the interval then null.  Exits 2 on bad input.
"""
import json
import sys
from math import comb
from statistics import median

MIN_ROUNDS = 5


def sign_interval(values, conf=0.95):
    """(low, high, coverage): the widest-order interval of the median
    whose coverage is at least conf, or the whole range if none is."""
    xs = sorted(values)
    n = len(xs)
    best = (xs[0], xs[-1], 1 - 2 * 0.5 ** n)
    for k in range(1, n // 2 + 1):
        # P(X(k) <= median <= X(n-k+1)) = 1 - 2 P(Bin(n, 1/2) < k)
        cover = 1 - 2 * sum(comb(n, i) for i in range(k)) / 2 ** n
        if cover < conf:
            break
        best = (xs[k - 1], xs[n - k], cover)
    return best


def read(path):
    """({round: {label: value}}, [labels in order]), or a message."""
    rounds, labels = {}, []
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            words = line.split()
            if not words:
                continue
            try:
                rnd, label, value = words[0], words[1], float(words[2])
            except (IndexError, ValueError):
                return f"{path}:{ln}: want ROUND LABEL VALUE: {line.strip()}"
            if len(words) != 3 or value <= 0:
                return f"{path}:{ln}: want ROUND LABEL VALUE>0: {line.strip()}"
            if label not in labels:
                labels.append(label)
            if label in rounds.setdefault(rnd, {}):
                return f"{path}:{ln}: {label} twice in round {rnd}"
            rounds[rnd][label] = value
    return rounds, labels


def compare(rounds, labels):
    full = [r for r in rounds.values() if all(lb in r for lb in labels)]
    ref = labels[0]
    rows = []
    for lb in labels[1:]:
        ratios = [r[lb] / r[ref] for r in full]
        row = {"label": lb, "median": median(r[lb] for r in full) if full else None,
               "ratio": median(ratios) if full else None,
               "low": None, "high": None, "coverage": None}
        if len(full) >= MIN_ROUNDS:
            row["low"], row["high"], row["coverage"] = sign_interval(ratios)
        rows.append(row)
    return {"reference": ref, "rounds": len(full),
            "reference_median": median(r[ref] for r in full) if full else None,
            "kernels": rows}


def markdown(res):
    ref = res["reference"]
    print(f"| kernel | median | vs {ref} (median ratio) | interval | verdict |")
    print("|---|---:|---:|---|---|")
    print(f"| {ref} | {res['reference_median']:.0f} | | | reference |")
    for row in res["kernels"]:
        lo, hi = row["low"], row["high"]
        verdict = "not resolvable" if lo <= 1 <= hi else (
            "lower" if hi < 1 else "higher")
        print(f"| {row['label']} | {row['median']:.0f} | "
              f"{(row['ratio'] - 1) * 100:+.1f} % | "
              f"{(lo - 1) * 100:+.1f} % .. {(hi - 1) * 100:+.1f} % "
              f"({row['coverage'] * 100:.0f} %) | {verdict} |")
    print(f"\n{res['rounds']} rounds, interleaved; interval: sign test on the "
          "per-round ratios.")


def main():
    args = sys.argv[1:]
    as_json = bool(args) and args[0] == "--json"
    if as_json:
        args = args[1:]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    got = read(args[0])
    if isinstance(got, str):
        print(got, file=sys.stderr)
        return 2
    rounds, labels = got
    if len(labels) < 2:
        print(f"need 2 labels, have {len(labels)}", file=sys.stderr)
        return 2
    res = compare(rounds, labels)
    if as_json:
        json.dump(res, sys.stdout)
        print()
        return 0
    if res["rounds"] < MIN_ROUNDS:
        print(f"need {MIN_ROUNDS} complete rounds, have {res['rounds']}",
              file=sys.stderr)
        return 1
    markdown(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
