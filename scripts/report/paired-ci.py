#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Paired comparison of interleaved runs: medians and a distribution-free
confidence interval for the median ratio of each kernel to the first.

usage: scripts/report/paired-ci.py FILE

FILE has one line per measurement, "ROUND LABEL VALUE", every label once
per round; the first label seen is the reference.  For each other label
the ratio VALUE/reference is taken within each round, and the interval is
the sign-test interval of the median ratio (order statistics; no
assumption about the shape of the noise), at the highest confidence the
number of rounds allows up to 95 %.  A ratio is "resolved" when its
interval excludes 1.  Prints a Markdown table; exits 2 on bad input, 1
when fewer than 5 complete rounds were given (no interval can say
anything then).
"""
import sys
from math import comb
from statistics import median


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


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rounds, labels = {}, []
    with open(sys.argv[1]) as f:
        for ln, line in enumerate(f, 1):
            words = line.split()
            if not words:
                continue
            try:
                rnd, label, value = words[0], words[1], float(words[2])
            except (IndexError, ValueError):
                print(f"{sys.argv[1]}:{ln}: want ROUND LABEL VALUE: {line.strip()}",
                      file=sys.stderr)
                return 2
            if label not in labels:
                labels.append(label)
            rounds.setdefault(rnd, {})[label] = value
    full = [r for r in rounds.values() if all(lb in r for lb in labels)]
    if len(labels) < 2 or len(full) < 5:
        print(f"need 2 labels and 5 complete rounds, have {len(labels)} and {len(full)}",
              file=sys.stderr)
        return 1
    ref = labels[0]
    print(f"| kernel | median | vs {ref} (median ratio) | interval | verdict |")
    print("|---|---:|---:|---|---|")
    print(f"| {ref} | {median(r[ref] for r in full):.0f} | | | reference |")
    for lb in labels[1:]:
        ratios = [r[lb] / r[ref] for r in full]
        lo, hi, cover = sign_interval(ratios)
        verdict = "not resolvable" if lo <= 1 <= hi else (
            "lower" if hi < 1 else "higher")
        print(f"| {lb} | {median(r[lb] for r in full):.0f} | "
              f"{(median(ratios) - 1) * 100:+.1f} % | "
              f"{(lo - 1) * 100:+.1f} % .. {(hi - 1) * 100:+.1f} % "
              f"({cover * 100:.0f} %) | {verdict} |")
    print(f"\n{len(full)} rounds, interleaved; interval: sign test on the "
          "per-round ratios.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
