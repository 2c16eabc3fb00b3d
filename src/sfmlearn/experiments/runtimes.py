"""Thesis Figs. 4.9-4.15: run time of the SFM's linear programs, with our engines.

The thesis (4.3) timed the hard and soft SFM with CPLEX, MOSEK, MATLAB's linprog and
GLPK on separable data from the basic experiment (balanced classes, the first k features
N(mu y, 1), the rest N(0, 1), separable within the k relevant ones), every solver at
its defaults, averaged over 100 runs (10 for the grids). We time our engines instead
(:mod:`sfmlearn.lp.engines`): ``auto`` (the default: column generation when d >> n,
else the full LP in HiGHS), ``colgen`` (column generation at every size), ``highs``
(the full LP in HiGHS), ``scipy`` (``scipy.optimize.linprog``, a HiGHS build of its
own) and ``glpk`` (the thesis' one open-source solver; needs swiglpk). MOSEK, CPLEX and Gurobi are not installed on this
machine, so sfmlearn has no engines for them; the published numbers of those solvers
are shown for reference only.

Parts (``run(parts=...)``):

=============  ===========================================================================
``samples``    Fig. 4.9: LP time against n (d = 100, k = 5, mu = 0.1; the figure's d is
               not in the text), whole fit and first iteration
``dimensions`` Fig. 4.10: against d (n = 200, k = 5, mu = 0.1, as in the figure)
``formulation`` Fig. 4.11: standard (w = w+ - w-) vs sparse (w, s) formulation (thesis 3.5)
``intrinsic``  Fig. 4.12: against the number k of relevant features and the distance mu
``grid_hard``  Fig. 4.13: the fastest engine and formulation for each (n, d)
``soft``       Fig. 4.14: soft (C = 1) over hard SFM, against n (d = 50) and d (n = 200)
``grid_soft``  Fig. 4.15: the fastest configuration of the soft SFM for each (n, d)
=============  ===========================================================================

Time is the sum of the per-iteration LP times the estimator records
(``history_["seconds"]``: building and solving each LP; the thesis timed the solver
alone) with ``refit=None``; BLAS runs on one thread. Times are from a shared 2-core
machine: compare ratios and slopes measured in one run, not absolute seconds with the
thesis' Core 2 Quad. GLPK builds its model row by row through swiglpk and is limited to
n d <= 10^6 (its sparse form to 2 10^5); the sparse formulation in HiGHS and scipy to
n d <= 10^6 as well (120-1100x slower than the standard form, README).

Published numbers (thesis 4.3): Fig. 4.9 slopes of log time against log n in the last
interval (MOSEK 1.08, MATLAB 1.17, CPLEX 1.17, GLPK 1.48) and times at n = 500 (MOSEK
0.084 s, CPLEX 0.176 s, MATLAB 4.9 s, GLPK 41.6 s); Fig. 4.10 average slopes against d
(MATLAB 0.73, GLPK 1.04, MOSEK 1.09, CPLEX 1.14); Fig. 4.11 at d = 20000, sparse vs
standard: MOSEK 17 s vs 14 s, CPLEX 60 s vs 3 s; Fig. 4.14: soft about 100x the hard
SFM at n = 10000, d = 50 (CPLEX), no measurable difference at d = 10000, n = 200. The
grid tables of Figs. 4.13 and 4.15 lost their axis labels in the text extraction and
are not compared.

    sfmlearn reproduce thesis-fig4.9 thesis-fig4.10 ... thesis-fig4.15 [--quick] [--repetitions 5]
        # one ID per part: samples 4.9, dimensions 4.10, formulation 4.11, intrinsic 4.12,
        # grid_hard 4.13, soft 4.14, grid_soft 4.15
"""

import warnings

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ..datasets import make_basic
from ..lp.engines import ENGINES
from ..selection import SupportFeatureMachine

__all__ = ["PARTS", "run", "slopes", "soft_overhead", "formulation_ratio", "comparison",
           "available_engines", "PUBLISHED_SLOPES"]

PARTS = ("samples", "dimensions", "formulation", "intrinsic", "grid_hard", "soft", "grid_soft")
ENGINE_ORDER = ("auto", "colgen", "highs", "scipy", "glpk")
GLPK_LIMIT = {"standard": 1_000_000, "sparse": 200_000}
SPARSE_LIMIT = 1_000_000

#: thesis 4.3: (figure, solver) -> slope of log time against log n (Fig. 4.9, last
#: interval) or log d (Fig. 4.10, average)
PUBLISHED_SLOPES = {
    ("samples", "MOSEK"): 1.08, ("samples", "MATLAB"): 1.17, ("samples", "CPLEX"): 1.17,
    ("samples", "GLPK"): 1.48,
    ("dimensions", "MATLAB"): 0.73, ("dimensions", "GLPK"): 1.04, ("dimensions", "MOSEK"): 1.09,
    ("dimensions", "CPLEX"): 1.14,
}
#: thesis 4.3, Fig. 4.9: seconds at n = 500
PUBLISHED_N500 = {"MOSEK": 0.084, "CPLEX": 0.176, "MATLAB": 4.9, "GLPK": 41.6}
#: thesis 4.3, Fig. 4.11: seconds (standard, sparse) at d = 20000
PUBLISHED_FORMULATION = {"MOSEK": (14.0, 17.0), "CPLEX": (3.0, 60.0)}


def available_engines():
    """The engines of :data:`ENGINE_ORDER` that can run here (GLPK needs swiglpk)."""
    names = [e for e in ENGINE_ORDER if e in ENGINES]
    try:
        import swiglpk  # noqa: F401
    except ImportError:
        names.remove("glpk")
    return tuple(names)


def _allowed(solver, formulation, n, d):
    if solver == "glpk":
        return n * d <= GLPK_LIMIT[formulation]
    return formulation == "standard" or n * d <= SPARSE_LIMIT


def time_fit(n, d, k, mu, C, solver, formulation, seed):
    """One SFM fit on fresh basic-experiment data; LP seconds (all, first iteration)."""
    X, y = make_basic(n, d, min(k, d), class_distance=mu, positive_fraction=0.5, random_state=seed)
    model = SupportFeatureMachine(C=C, refit=None, solver=solver, formulation=formulation)
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model.fit(X, y)
    seconds = model.history_["seconds"]
    return {"seconds": float(np.sum(seconds)), "first_seconds": float(seconds[0]),
            "n_iter": int(model.n_iter_), "n_selected": int(model.support_.sum())}


def _configs(part, quick, engines):
    """(n, d, k, mu, C, solver, formulation) tuples of one part."""
    def sweep(ns, ds, ks=(5,), mus=(0.1,), Cs=(None,), solvers=engines, formulations=("standard",)):
        return [(n, d, k, mu, C, s, f) for n in ns for d in ds for k in ks for mu in mus for C in Cs
                for s in solvers for f in formulations if _allowed(s, f, n, d)]

    full_lp = tuple(e for e in engines if e not in ("auto", "colgen"))
    if part == "samples":
        return sweep((20, 100, 500, 2000) if quick else (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000), (100,))
    if part == "dimensions":
        return sweep((200,), (20, 100, 1000, 5000) if quick else
                     (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000))
    if part == "formulation":
        formulations = ("standard", "sparse")
        if quick:
            return sweep((200,), (100, 1000), solvers=full_lp, formulations=formulations)
        return (sweep((200,), (10, 100, 1000, 5000), solvers=full_lp, formulations=formulations)
                + sweep((100, 1000, 5000), (100,), solvers=full_lp, formulations=formulations))
    if part == "intrinsic":
        ks, mus = ((1, 5, 20), (0.05, 0.2, 1.0)) if quick else ((1, 2, 5, 10, 20, 50), (0.05, 0.1, 0.2, 0.5, 1.0))
        return (sweep((200,), (1000,), ks=ks, solvers=("auto", "highs"))
                + sweep((200,), (1000,), mus=mus, solvers=("auto", "highs")))
    if part in ("grid_hard", "grid_soft"):
        soft = part == "grid_soft"
        ns = (20, 200) if quick else (10, 50, 200, 1000, 5000)
        ds = (100, 1000) if quick else (10, 100, 1000, 10000, 100000)
        limit = 1_000_000 if soft else 5_000_000
        configs = sweep(ns, ds, Cs=(1.0 if soft else None,), formulations=("standard", "sparse"))
        return [c for c in configs if c[0] * c[1] <= limit and not (c[5] in ("auto", "colgen") and c[6] == "sparse")]
    if part == "soft":
        solvers = ("auto", "highs")
        ns, ds = ((100, 1000), (100, 5000)) if quick else ((50, 100, 200, 500, 1000, 2000, 5000), (50, 200, 1000, 5000, 10000))
        return (sweep(ns, (50,), Cs=(None, 1.0), solvers=solvers)
                + sweep((200,), ds, Cs=(None, 1.0), solvers=solvers))
    raise ValueError(f"unknown part {part!r}; choose from {PARTS}.")


def run(quick=False, repetitions=None, parts=PARTS, random_state=0, progress=None):
    """Mean LP time per configuration; one row per (part, n, d, k, mu, soft, solver, formulation).

    ``quick``: small grids and 2 runs per point (full: 5; the thesis 100, 10 for the
    grids). Runs are sequential: parallel timing on a 2-core machine would distort it.
    ``progress`` (optional) is called once per configuration.
    """
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"unknown parts {sorted(unknown)}; choose from {PARTS}.")
    repetitions = repetitions or (2 if quick else 5)
    engines = available_engines()
    seeds = np.random.default_rng(random_state).integers(2**31, size=repetitions)
    rows = []
    for part in parts:
        for n, d, k, mu, C, solver, formulation in _configs(part, quick, engines):
            runs = [time_fit(n, d, k, mu, C, solver, formulation, int(s)) for s in seeds]
            rows.append({"part": part, "n": n, "d": d, "k": k, "mu": mu, "soft": C is not None,
                         "solver": solver, "formulation": formulation,
                         "seconds": np.mean([r["seconds"] for r in runs]),
                         "first_seconds": np.mean([r["first_seconds"] for r in runs]),
                         "n_iter": np.mean([r["n_iter"] for r in runs]), "runs": len(runs)})
            if progress is not None:
                progress()
    table = pd.DataFrame(rows)
    # The one per-configuration number the thesis prints for a solver we also run: GLPK at
    # n = 500 (Fig. 4.9). Slopes and ratios are compared by :func:`comparison`.
    published = (table.part == "samples") & (table.solver == "glpk") & (table.n == 500)
    table["published"] = np.where(published, PUBLISHED_N500["GLPK"], np.nan)
    table.attrs.update(repetitions=repetitions, engines=engines)
    return table


def _slope(x, t):
    return float(np.diff(np.log(t))[-1] / np.diff(np.log(x))[-1]), float(np.polyfit(np.log(x), np.log(t), 1)[0])


def slopes(table, part):
    """Per engine: slope of log time against log n ("samples") or log d ("dimensions")
    over the last interval and fitted over the whole range, next to the thesis' slopes."""
    axis = "n" if part == "samples" else "d"
    rows = []
    for solver, group in table[(table.part == part)].groupby("solver", sort=False):
        group = group.sort_values(axis)
        if len(group) < 2:
            continue
        last, overall = _slope(group[axis].to_numpy(float), group["seconds"].to_numpy(float))
        rows.append({"solver": solver, "range": f"{group[axis].min()}-{group[axis].max()}",
                     "slope_last_interval": last, "slope_fit": overall})
    ours = pd.DataFrame(rows)
    published = pd.DataFrame([{"solver": s, "published_slope": v} for (p, s), v in PUBLISHED_SLOPES.items() if p == part])
    return ours, published


def soft_overhead(table):
    """Soft / hard LP time for each (n, d, solver) of the ``soft`` part."""
    part = table[table.part == "soft"]
    wide = part.pivot_table(index=["n", "d", "solver"], columns="soft", values="seconds")
    wide = wide.rename(columns={False: "hard_seconds", True: "soft_seconds"}).reset_index()
    wide["soft_over_hard"] = wide.soft_seconds / wide.hard_seconds
    return wide


def formulation_ratio(table):
    """Sparse / standard LP time for each (n, d, solver) of the ``formulation`` part."""
    part = table[table.part == "formulation"]
    wide = part.pivot_table(index=["n", "d", "solver"], columns="formulation", values="seconds").reset_index()
    wide["sparse_over_standard"] = wide["sparse"] / wide["standard"]
    return wide


def _compared(part, published_solver, metric, ours, published, our_engine):
    """One comparison row, shown without a verdict (``agrees`` None): timings have no
    standard error here (2-5 runs per point on a shared machine; a slope comes from one
    grid), and only GLPK is common to the thesis and us."""
    same = our_engine == "glpk" and published_solver == "GLPK"
    return {"part": part, "metric": metric, "published_solver": published_solver, "our_engine": our_engine,
            "ours": ours, "published": published, "gap": ours - published, "agrees": None,
            "judged_by": "no SE: not judged" if same else "reference only: a different solver",
            "cell": f"thesis 4.3 ({part}): {published_solver}, {metric.split(' (')[0]}"}


def comparison(table):
    """Our numbers next to the thesis' (rows: part, metric, published_solver, our_engine,
    ours, published, gap, agrees, judged_by, cell).

    No row gets a verdict (``agrees`` None): GLPK, the one solver common to both, has
    slopes and seconds without a standard error (different machines and years); the
    numbers of MOSEK, CPLEX and MATLAB are set against our ``highs`` full LP for
    reference only.
    """
    rows = []
    for part, column in (("samples", "slope_last_interval"), ("dimensions", "slope_fit")):
        ours, _ = slopes(table, part)
        if ours.empty:
            continue
        ours = ours.set_index("solver")[column]
        for (p, solver), value in PUBLISHED_SLOPES.items():
            engine = "glpk" if solver == "GLPK" else "highs"
            if p == part and engine in ours:
                rows.append(_compared(part, solver, f"slope of log time vs log {'n' if part == 'samples' else 'd'}",
                                      ours[engine], value, engine))
    glpk500 = table[(table.part == "samples") & (table.solver == "glpk") & (table.n == 500)]
    if len(glpk500):
        rows.append(_compared("samples", "GLPK", "seconds at n = 500 (different machine and GLPK version)",
                              float(glpk500.seconds.iloc[0]), PUBLISHED_N500["GLPK"], "glpk"))
    if (table.part == "formulation").any():
        ratio = formulation_ratio(table)
        largest = ratio[(ratio.solver == "highs") & (ratio.d == ratio.d.max())]
        for solver, (standard, sparse) in PUBLISHED_FORMULATION.items():
            if len(largest):
                rows.append(_compared("formulation", solver, f"sparse / standard time (ours d = {largest.d.iloc[0]}, "
                                      "thesis d = 20000)", float(largest.sparse_over_standard.iloc[0]),
                                      sparse / standard, "highs"))
    if (table.part == "soft").any():
        overhead = soft_overhead(table)
        overhead = overhead[overhead.solver == "highs"]
        by_n = overhead[overhead.d == 50]
        if len(by_n):
            top = by_n[by_n.n == by_n.n.max()].iloc[0]
            rows.append(_compared("soft", "CPLEX", f"soft / hard time (ours n = {top.n}, thesis n = 10000, d = 50)",
                                  float(top.soft_over_hard), 100.0, "highs"))
        by_d = overhead[overhead.n == 200]
        if len(by_d):
            top = by_d[by_d.d == by_d.d.max()].iloc[0]
            rows.append(_compared("soft", "CPLEX", f"soft / hard time (ours d = {top.d}, thesis d = 10000, n = 200)",
                                  float(top.soft_over_hard), 1.0, "highs"))
    return pd.DataFrame(rows)
