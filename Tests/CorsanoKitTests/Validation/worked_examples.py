#!/usr/bin/env python3
"""Worked numbers for ValidationStatisticsTests, computed independently of the Swift code.

Run once (python3 with mpmath, numpy, scipy); its output is pasted into the tests. Φ and the
criterion-2 root come from mpmath at 40 digits (its own erfc and findroot, not glibc's), the
sample SDs from numpy (ddof=1), the one-way ANOVA variance components of Bland & Altman 2007
from exact fractions, the ANOVA mean squares cross-checked against scipy's F statistic.
"""
from fractions import Fraction as F
import mpmath as mp
import numpy as np
from scipy import stats

mp.mp.dps = 40

def phi(x):
    return mp.ncdf(x)

def limit(mu):
    f = lambda s: phi((10 - mu) / s) - phi((-10 - mu) / s) - mp.mpf("0.85")
    return mp.findroot(f, (mp.mpf("0.5"), mp.mpf("19")), solver="anderson")

print("Phi:")
for x in ["-8", "-3", "-1.959963984540054", "-1", "0", "0.5", "1", "1.959963984540054", "3"]:
    print(f"  Phi({x}) = {mp.nstr(phi(mp.mpf(x)), 20)}")
print("criterion 2 limit (the standard's table rounds these to 0.01):")
for mu in ["0", "0.5", "1", "1.5", "2", "2.5", "3", "3.5", "4", "4.5", "5", "-5", "9.5"]:
    print(f"  mu={mu}: {mp.nstr(limit(mp.mpf(mu)), 15)}")

def anova(groups):
    groups = [[F(x) for x in g] for g in groups if g]
    m = len(groups); n = sum(len(g) for g in groups)
    allv = [x for g in groups for x in g]
    grand = sum(allv) / n
    means = [sum(g) / len(g) for g in groups]
    ssw = sum((x - mi) ** 2 for g, mi in zip(groups, means) for x in g)
    msw = ssw / (n - m) if n > m else F(0)
    ssb = sum(len(g) * (mi - grand) ** 2 for g, mi in zip(groups, means))
    msb = ssb / (m - 1) if m > 1 else None
    out = {"bias": float(grand), "msw": float(msw)}
    if msb is not None:
        div = (F(n * n) - sum(F(len(g) ** 2) for g in groups)) / (F(m - 1) * n)
        sb2 = (msb - msw) / div
        out.update(msb=float(msb), divisor=float(div), sb2_raw=float(sb2))
        if n > m:
            fstat = stats.f_oneway(*[np.array([float(x) for x in g]) for g in groups]).statistic
            out["scipy_F"] = float(fstat); out["F"] = float(msb / msw) if msw else None
        sb2 = max(sb2, F(0))
    else:
        sb2 = F(0)
    total = sb2 + msw
    sd = float(total) ** 0.5 if n >= 2 else None  # one difference has no spread
    out["sb2"] = float(sb2)
    if sd is None:
        out["sd"] = None
    else:
        out.update(sd=sd, lower=float(grand) - 1.96 * sd, upper=float(grand) + 1.96 * sd)
    out["sdAll"] = float(np.std([float(x) for x in allv], ddof=1)) if n > 1 else None
    sm = [float(x) for x in means]
    out["sdMeans"] = float(np.std(sm, ddof=1)) if m > 1 else None
    out["mad"] = float(sum(abs(x) for x in allv) / n)
    return out

examples = {
    # unequal pairs per subject, subjects differ: between-subject variance positive
    "unequal": [[2, 4, 3], [-1, 1], [6, 8, 7, 9], [0]],
    # subjects' means agree more than their scatter predicts: between-subject estimate < 0
    "negativeBetween": [[-4, 4], [-3, 3], [-5, 5]],
    # one subject, three pairs
    "oneSubject": [[1, 2, 6]],
    # one pair
    "onePair": [[3]],
    # zero variance
    "zeroVariance": [[2, 2], [2, 2, 2]],
    # one pair per subject: the ordinary SD
    "onePerSubject": [[1], [5], [-2], [4]],
}
for name, g in examples.items():
    print(name, anova(g))
