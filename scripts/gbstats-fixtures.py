#!/usr/bin/env python3
"""Writes Tests/ReportingTests/Fixtures/gbstats.json: small synthetic experiments (fixed seeds) as the
per-group sums the server keeps, and beside them what GrowthBook's engine, gbstats 0.8.0, makes of
them. The Swift statistics are checked against this file, so the Swift tests need no Python.

Run by hand after `pip install gbstats==0.8.0`:  python3 scripts/gbstats-fixtures.py
"""
import json
import math
import os
import random
from importlib.metadata import version

from gbstats.frequentist.tests import (
    FrequentistConfig,
    SequentialConfig,
    SequentialTwoSidedTTest,
    TwoSidedTTest,
)
from gbstats.models.statistics import (
    ProportionStatistic,
    RatioStatistic,
    SampleMeanStatistic,
)
from gbstats.utils import check_srm

assert version("gbstats") == "0.8.0", "the fixtures are made with gbstats 0.8.0"


def poisson(rng, lam):
    # Knuth's method: small means only, enough for views per visitor.
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def group_sums(rng, visitors, views_mean, selection_rate):
    """One group's sums, built visitor by visitor as the server does."""
    s = dict(visitors=visitors, converting=0, selections=0, selectionSquares=0,
             views=0, viewSquares=0, viewSelectionProducts=0)
    for _ in range(visitors):
        views = 1 + poisson(rng, views_mean - 1)
        selections = sum(1 for _ in range(views) if rng.random() < selection_rate)
        s["converting"] += selections > 0
        s["selections"] += selections
        s["selectionSquares"] += selections * selections
        s["views"] += views
        s["viewSquares"] += views * views
        s["viewSelectionProducts"] += views * selections
    return s


def statistics(s):
    n = s["visitors"]
    selections = SampleMeanStatistic(n=n, sum=s["selections"], sum_squares=s["selectionSquares"])
    views = SampleMeanStatistic(n=n, sum=s["views"], sum_squares=s["viewSquares"])
    return {
        "proportion": ProportionStatistic(n=n, sum=s["converting"]),
        "mean": selections,
        "ratio": RatioStatistic(n=n, m_statistic=selections, d_statistic=views,
                                m_d_sum_of_products=s["viewSelectionProducts"]),
    }


def result(test):
    r = test.compute_result()
    return {"expected": r.expected, "low": r.ci[0], "high": r.ci[1], "pValue": r.p_value,
            "errorMessage": r.error_message}


def compare(a, b):
    out = {}
    for metric in ("proportion", "mean", "ratio"):
        sa, sb = statistics(a)[metric], statistics(b)[metric]
        out[metric] = {
            "baselineMean": sa.mean, "baselineVariance": sa.variance,
            "mean": sb.mean, "variance": sb.variance,
        }
        for kind in ("relative", "absolute"):
            out[metric][kind] = {
                "fixed": result(TwoSidedTTest(sa, sb, FrequentistConfig(difference_type=kind))),
                "sequential": result(SequentialTwoSidedTTest(
                    sa, sb, SequentialConfig(difference_type=kind, sequential_tuning_parameter=5000))),
            }
    return out


CASES = [
    # name, seed, visitors (baseline, variation), mean views per visitor, selection rate per view
    ("no-effect", 1, (1000, 1000), 3.0, (0.10, 0.10)),
    ("known-effect", 2, (1000, 1000), 3.0, (0.10, 0.13)),
    ("large", 3, (20000, 20000), 2.5, (0.05, 0.055)),
    ("unequal-groups", 4, (3000, 1000), 2.0, (0.20, 0.17)),
    ("small", 5, (12, 15), 2.0, (0.3, 0.4)),
    ("rare", 6, (5000, 5000), 1.5, (0.004, 0.006)),
    ("zero-baseline", 7, (50, 50), 2.0, (0.0, 0.1)),
]

SRM = [
    ([5000, 5000], [1, 1]),
    ([5200, 4800], [1, 1]),
    ([1040, 960], [1, 1]),
    ([2550, 7450], [1, 3]),
    ([300, 340, 360], [1, 1, 1]),
    ([1, 0], [1, 1]),
    ([0, 0], [1, 1]),
    ([120, 80], [0.5, 0.5]),
]


def main():
    cases = []
    for name, seed, (na, nb), views_mean, (pa, pb) in CASES:
        rng = random.Random(seed)
        a = group_sums(rng, na, views_mean, pa)
        b = group_sums(rng, nb, views_mean, pb)
        cases.append({"name": name, "seed": seed, "baseline": a, "variation": b, "gbstats": compare(a, b)})
    srm = [{"visitors": v, "weights": w, "pValue": check_srm(v, w)} for v, w in SRM]
    fixtures = {"gbstats": version("gbstats"), "alpha": 0.05, "sequentialTuning": 5000,
                "cases": cases, "srm": srm}
    path = os.path.join(os.path.dirname(__file__), "..", "Tests", "ReportingTests", "Fixtures", "gbstats.json")
    with open(path, "w") as f:
        json.dump(fixtures, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
