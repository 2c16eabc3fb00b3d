"""Scale in samples: row and column generation vs the reference engine vs LinearSVC.

Every part compares methods measured in the same run (ratios are the claim; the machine
is shared, so absolute seconds move with its load, printed at start and end).

``--part table``   soft SFM (C = 1) at d = 2000, 20 informative features with a class
                   shift of 0.5 (class means +-0.5, ``--offset``), balanced classes,
                   n = 100 ... 4000: ``solver="auto"``
                   of this tree vs the reference tree's default (the full LP in HiGHS
                   once d < 4 (n + 1)) vs l1-``LinearSVC(C=0.05)``;
                   ``--repeats N``: N interleaved runs of each, medians.
``--part large``   n = 10^4, d = 2 * 10^4, float32, soft SFM vs l1-LinearSVC, each in
                   its own process, with its peak RSS (``resource.getrusage``).
``--part slope``   fit time of the soft SFM against n = 500 ... 16000 at d = 2000 and the
                   log-log slope (least squares), beside an oracle floor (every LP of the
                   fit solved again from its own optimum's partition) and its slope;
                   ``--slope-data hard``: the hard SFM on the separable data of
                   ``--part hard``, whose solution keeps its size.
``--part hard``    hard SFM on data separable through 10 informative features (a gap of
                   0.3 around a random hyperplane) among ``--hard-d``, n = 10^4: ``solver="auto"`` vs the full LP
                   (``solver="highs"``) of this tree.
``--part start``   the soft SFM's first LP at n = 4000 (``--sizes``) from the FISTA cold
                   start, the 400-sample LP, l1-LinearSVC and its own optimum, and from
                   the optimum and FISTA with their errors aggregated: master solves,
                   rows, simplex iterations.
``--part fista``   whole soft-SFM fits with the FISTA cold start and with the 400-sample
                   LP start, interleaved (``--repeats``), at n = 2000, 4000 (``--sizes``),
                   and once at the ``large`` shape with FISTA forced.
``--part band``    whole soft-SFM fits with and without the band of rows a warm solve
                   gives the samples nearest its start's margin (``rowgen.WARM_BAND``;
                   ``--bands``, default 3,0), interleaved (``--repeats``), at n = 2000,
                   4000, 8000 (``--sizes``).
``--part paper``   the paper shapes (38 x 7129, 88 x 6362, 100 x 10006, 88 x 50989):
                   default soft-free SFM fit, this tree vs the reference tree.

The reference tree is the source of a git revision (``--reference``, default: the
revision before row generation, 2026-11-25), extracted with ``git archive`` into a
temporary folder and timed in a child process on the same data (``_shapes.py`` builds
them in both).
The repetitive SFM against full LPs is ``bench_repetitive.py --part single``.

    python benchmarks/bench_samples.py --part table [--reference REV]
"""

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
import warnings

import _env  # noqa: F401  (one BLAS thread; must precede numpy)
import numpy as np
from _interleave import interleaved
from _reference import RevisionTree

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = "49a40cf"  # 2026-11-25, the revision before row generation


#: Each class's mean on an informative feature is +-ISSUE_OFFSET, a class shift of 0.5
#: (``--part table`` with each ``--offset``): l1-LinearSVC fits in 0.02, 0.15, 0.30,
#: 0.90 s at n = 100, 1000, 2000, 4000 (+-0.25: 0.02, 0.45, 1.34, 4.08), keeping 197 and
#: 281 features at n = 2000 and 4000 (+-0.25: 719, 1188), and the SFM selects exactly
#: the 20 informative features at n >= 2000 (+-0.25: 40 and 109).
ISSUE_OFFSET = 0.5
#: Harder data (``--offset 0.25``): there the soft SFM's solution grows with n (18
#: features at n = 500, 502 at 16000).
HARDER_OFFSET = 0.25


def soft_data(n, d, informative=20, offset=ISSUE_OFFSET, dtype=np.float64, seed=0):
    """Balanced classes; the first ``informative`` features' class means at +-offset."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    X = rng.standard_normal((n, d), dtype=np.float32 if dtype == np.float32 else np.float64)
    X[:, :informative] += (offset * y)[:, None].astype(X.dtype)
    return X, y


def hard_data(n, d, informative=10, gap=0.3, seed=0):
    """Separable only through all ``informative`` features together: y = sign(x . w*)
    for a random w* on them, then every sample pushed gap / 2 away from the hyperplane."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(informative)
    w /= np.linalg.norm(w)
    y = np.where(X[:, :informative] @ w >= 0, 1, -1)
    X[:, :informative] += (gap / 2 * y)[:, None] * w
    return X, y


def make(spec):
    kind, *args = spec
    if kind == "soft":
        n, d, dtype, offset = args
        return soft_data(n, d, offset=offset, dtype=np.float32 if dtype == "float32" else np.float64)
    if kind == "hard":
        return hard_data(*args)
    sys.path.insert(0, HERE)
    from _shapes import paper_shape
    return paper_shape(args[0])


def fit_sfm(spec, params):
    """(seconds, selected features, n_iter) of SupportFeatureMachine(**params) on spec."""
    from sfmlearn import SupportFeatureMachine
    X, y = make(spec)
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = SupportFeatureMachine(**params).fit(X, y)
    return time.perf_counter() - started, int(model.support_.sum()), int(model.n_iter_)


def fit_linear_svc(spec):
    from sklearn.svm import LinearSVC
    X, y = make(spec)
    started = time.perf_counter()
    model = LinearSVC(penalty="l1", dual=False, C=0.05, max_iter=5000).fit(X, y)
    return time.perf_counter() - started, int(np.count_nonzero(model.coef_)), int(model.n_iter_)


class Reference:
    """Times fits in a child process on the source of a git revision."""

    def __init__(self, revision):
        self.tree = RevisionTree(revision)

    def fit(self, spec, params):
        return tuple(self.tree.run(f"import json, bench_samples as b; "
                                   f"print(json.dumps(b.fit_sfm({spec!r}, {params!r})))"))


def table(reference, sizes, repeats=1, offset=ISSUE_OFFSET):
    """The table; with ``repeats`` > 1 every n runs the three fits that many times,
    interleaved (the order rotates from round to round), and prints the medians and
    each round's reference/new ratio: the machine's speed drifts within minutes."""
    print(f"soft SFM (C=1), d = 2000, 20 informative (class means +-{offset:g}); seconds; "
          "ratios in this run"
          + (f"; medians of {repeats} interleaved runs" if repeats > 1 else ""))
    print(f"{'n':>6} {'new auto':>9} {'reference':>10} {'LinearSVC':>10} {'ref/new':>8} "
          f"{'new/SVC':>8} {'k new':>6} {'k ref':>6} {'k SVC':>6}")
    for n in sizes:
        spec = ("soft", n, 2000, "float64", offset)
        fits = {"new": lambda: fit_sfm(spec, {"C": 1.0}), "svc": lambda: fit_linear_svc(spec)}
        if reference:
            fits["ref"] = lambda: reference.fit(spec, {"C": 1.0})
        runs = interleaved(fits, repeats)
        new, ref, svc = ((float(np.median([r[0] for r in runs[name]])), runs[name][0][1])
                         if name in runs else (np.nan, -1) for name in ("new", "ref", "svc"))
        print(f"{n:>6} {new[0]:9.2f} {ref[0]:10.2f} {svc[0]:10.2f} {ref[0] / new[0]:8.1f} "
              f"{new[0] / svc[0]:8.1f} {new[1]:>6} {ref[1]:>6} {svc[1]:>6}", flush=True)
        if repeats > 1 and "ref" in runs:
            rounds = ", ".join(f"{r[0]:.2f}/{s[0]:.2f} = {r[0] / s[0]:.1f}x"
                               for r, s in zip(runs["ref"], runs["new"]))
            print(f"{'':>6} each round, reference/new: {rounds}", flush=True)


def _in_child(call):
    """Run ``call`` (source text of an expression on module ``b``) in a fresh process with
    this tree; returns (its value, the child's peak RSS in GiB)."""
    code = (f"import sys, json, resource; sys.path.insert(0, {HERE!r}); "
            f"sys.path.insert(0, {os.path.join(HERE, os.pardir, 'src')!r}); import bench_samples as b; "
            f"value = {call}; "
            "print(json.dumps([value, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20]))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return tuple(json.loads(out.stdout.strip().splitlines()[-1]))


def large(offset=ISSUE_OFFSET):
    spec = ("soft", 10_000, 20_000, "float32", offset)
    (new, sfm_peak) = _in_child(f"b.fit_sfm({spec!r}, {{'C': 1.0}})")
    (svc, svc_peak) = _in_child(f"b.fit_linear_svc({spec!r})")
    (_, data_peak) = _in_child(f"b.make({spec!r})[0].nbytes")
    print(f"n=10000 d=20000 float32 (class means +-{offset:g}): soft SFM {new[0]:.1f} s "
          f"({new[1]} features), l1-LinearSVC {svc[0]:.1f} s ({svc[1]} features), "
          f"SFM/SVC {new[0] / svc[0]:.3f}x")
    print(f"peak RSS of each process: SFM fit {sfm_peak:.2f} GiB, LinearSVC fit {svc_peak:.2f} GiB, "
          f"building the data alone {data_peak:.2f} GiB (X: {10_000 * 20_000 * 4 / 2**30:.2f} GiB)")


_FISTA = object()  # _cold_start's default: the engine's own first-order start


@contextlib.contextmanager
def _cold_start(point=_FISTA, errors_get_rows=True):
    """Row generation's cold start through private seams (a diagnostic only): the start
    point ``(columns, w, b)``, None for the subsample LP, or the FISTA default; and
    whether its margin errors get master rows (``rowgen.COLD_ERRORS_GET_ROWS``)."""
    from sfmlearn.lp.rowgen import starts, tuning
    saved = starts.squared_hinge_start, tuning.COLD_ERRORS_GET_ROWS
    if point is not _FISTA:
        starts.squared_hinge_start = lambda *_: point
    tuning.COLD_ERRORS_GET_ROWS = errors_get_rows
    try:
        yield
    finally:
        starts.squared_hinge_start, tuning.COLD_ERRORS_GET_ROWS = saved


@contextlib.contextmanager
def _recorded_solves():
    """A list that collects (problem, solution, seconds) of every LP a fit solves through
    a row-generation session (a diagnostic seam), not those solved inside one (a cold
    start's subsample LP)."""
    from sfmlearn.lp import rowgen
    solve, solved, depth = rowgen.GenerationSession.solve, [], [0]

    def recorded(session, problem):
        depth[0] += 1
        started = time.perf_counter()
        try:
            solution = solve(session, problem)
        finally:
            depth[0] -= 1
        if depth[0] == 0:
            solved.append((problem, solution, time.perf_counter() - started))
        return solution

    rowgen.GenerationSession.solve = recorded
    try:
        yield solved
    finally:
        rowgen.GenerationSession.solve = solve


def slope(sizes, data="soft", offset=ISSUE_OFFSET):
    """Fit time against n at d = 2000: the soft SFM (C = 1) on the table's data (its
    solution keeps the 20 informative features; with ``offset=HARDER_OFFSET`` it grows
    with n), or (``data="hard"``) the hard SFM on ``hard_data``, whose
    solution keeps its size (7-9 of the 10 informative features). Beside each fit: its
    LPs, the seconds spent in them and in the first (cold) one, and a floor: the fit's
    LPs each solved again by a new engine, cold from its own optimum with that optimum's
    margin errors aggregated (the exact partition of the samples, an oracle no cold
    start can beat; ``--part start`` has the first LP's).
    A better search for the partition cannot remove this floor's growth; a warm later
    step, which also starts from the last basis, can be cheaper than its share."""
    times, floors = [], []
    print(f"{data} SFM, d = 2000" + (f", class means +-{offset:g}" if data == "soft" else ""))
    print(f"{'n':>6} {'seconds':>8} {'k':>4} {'LPs':>4} {'in LPs':>8} {'first LP':>8} {'oracle':>8}")
    for n in sizes:
        spec, params = (("soft", n, 2000, "float64", offset), {"C": 1.0}) if data == "soft" \
            else (("hard", n, 2000), {})
        with _recorded_solves() as solved:
            seconds, k, _ = fit_sfm(spec, params)
        floor = sum(_from_own_optimum(problem, solution) for problem, solution, _ in solved)
        times.append(seconds)
        floors.append(floor)
        print(f"{n:>6} {seconds:8.2f} {k:>4} {len(solved):>4} {sum(s for *_, s in solved):8.2f} "
              f"{solved[0][2]:8.2f} {floor:8.2f}", flush=True)
    for name, values in (("fit time", times), ("oracle floor", floors)):
        fitted = np.polyfit(np.log(sizes), np.log(values), 1)[0]
        print(f"log-log slope of the {name} against n ({sizes[0]}..{sizes[-1]}): {fitted:.2f}")


def _from_own_optimum(problem, optimum):
    """Seconds of ``problem`` solved by a new GenerationEngine cold from ``optimum`` (its
    own solution) with the errors aggregated; the objective must agree."""
    from sfmlearn.lp import GenerationEngine
    support = np.flatnonzero(optimum.w)
    with _cold_start((support, optimum.w[support], optimum.b), errors_get_rows=False):
        started = time.perf_counter()
        again = GenerationEngine().solve(problem)
        seconds = time.perf_counter() - started
    if abs(again.objective - optimum.objective) > 1e-7 * (1 + abs(optimum.objective)):
        raise AssertionError(f"oracle objective {again.objective} != {optimum.objective}")
    return seconds


def start(n, offset=ISSUE_OFFSET):
    """Simplex work of the soft SFM's first LP (C = 1, the table's data at ``n``) from four
    starts: the cold start ``solver="auto"`` uses (FISTA, ``sfmlearn.lp.first_order``;
    its seconds include FISTA's), the LP on 400 evenly spaced samples (the start before
    it, still the hard problems'), l1-``LinearSVC(C=0.5)`` on the scaled data (scaled to
    the equality; it needs the scaled matrix materialised, so it is a comparison, not a
    start the engine may take), and the LP's own optimum (an oracle: what any cheaper
    start could at best achieve); then the optimum and the default start again with their
    margin errors in the aggregated error rows instead of master rows
    (``rowgen.COLD_ERRORS_GET_ROWS = False``): the exact partition of the samples, and
    what trusting a rough start's errors costs. Iteration counts and master sizes repeat
    exactly from run to run; seconds do not."""
    from sklearn.svm import LinearSVC
    from sfmlearn.lp import GenerationEngine, sfm_lp
    from sfmlearn.lp import master as master_module
    from sfmlearn.lp.rowgen import tuning as rowgen
    from sfmlearn.preprocessing import SFMScaler
    X, y = soft_data(n, 2000, offset=offset)
    Z = SFMScaler().fit_transform(X)
    problem = sfm_lp(Z, np.asarray(y, dtype=float), np.ones(X.shape[1]), slack_cost=np.ones(n))
    solves = []
    run = master_module.Master.run

    def counted(master):  # (master rows, simplex iterations) of every master solve
        before = master.iterations
        status = run(master)
        solves.append((master.h.getNumRow(), master.iterations - before))
        return status

    def linear_svc_start():
        started = time.perf_counter()
        svc = LinearSVC(penalty="l1", dual=False, C=0.5, max_iter=5000).fit(Z, y)
        w = svc.coef_.ravel()
        scale = 1.0 / float(problem.equality.coef @ w)  # onto (mu_+ - mu_-) . w = 1
        support = np.flatnonzero(w)
        print(f"  (l1-LinearSVC: {time.perf_counter() - started:.2f} s, {support.size} features)")
        return support, scale * w[support], scale * float(svc.intercept_[0])

    def solve(label):
        solves.clear()
        started = time.perf_counter()
        solution = GenerationEngine().solve(problem)
        seconds = time.perf_counter() - started
        print(f"{label:<32} objective {solution.objective:.6f}: {len(solves)} master solves, "
              f"{max(rows for rows, _ in solves)} rows at most, "
              f"{sum(it for _, it in solves)} simplex iterations, {seconds:.2f} s", flush=True)
        return solution

    master_module.Master.run = counted
    try:
        # The FISTA start serves n >= FIRST_ORDER_FROM x d only; below, the default is the
        # 400-sample LP (the next line then repeats it).
        fista = n >= rowgen.FIRST_ORDER_FROM * X.shape[1]
        cold = solve("FISTA (default)" if fista else "default (400-sample LP)")
        with _cold_start(None):
            solve("400-sample LP")
        with _cold_start(linear_svc_start()):
            solve("l1-LinearSVC")
        support = np.flatnonzero(cold.w)
        optimum = (support, cold.w[support], cold.b)
        with _cold_start(optimum):
            solve("its own optimum")
        # The same starts with their errors aggregated instead of given rows.
        with _cold_start(optimum, errors_get_rows=False):
            solve("own optimum, errors aggregated")
        with _cold_start(errors_get_rows=False):
            solve("FISTA, errors aggregated" if fista else "400-sample LP, errors aggregated")
    finally:
        master_module.Master.run = run


def fista_start(sizes, repeats, offset=ISSUE_OFFSET):
    """Whole soft-SFM fits (C = 1) with the FISTA cold start (the default from n >= d on)
    and with the 400-sample LP start, interleaved in one process (:mod:`_interleave`),
    ``repeats`` each: the table's data at d = 2000 for each n of ``sizes``, then once each
    the ``--part large`` shape with FISTA forced (n < d keeps it off there). Process CPU
    seconds."""
    from sfmlearn import SupportFeatureMachine
    from sfmlearn.lp.rowgen import tuning as rowgen
    from_ratio = rowgen.FIRST_ORDER_FROM
    specs = [(("soft", n, 2000, "float64", offset), "default", repeats) for n in sizes]
    specs.append((("soft", 10_000, 20_000, "float32", offset), "forced", 1))
    print(f"{'shape':<24} {'FISTA median':>13} {'min':>6} {'LP start median':>16} {'min':>6} {'ratio':>6}")
    for spec, mode, count in specs:
        X, y = make(spec)

        def fit(start, mode=mode, X=X, y=y):
            # Private seams, a diagnostic only: force or remove the FISTA start.
            if mode == "forced":
                rowgen.FIRST_ORDER_FROM = 0.0
            try:
                with _cold_start(None if start == "subsample" else _FISTA):
                    started = time.process_time()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        SupportFeatureMachine(C=1.0).fit(X, y)
                    return time.process_time() - started
            finally:
                rowgen.FIRST_ORDER_FROM = from_ratio

        times = interleaved({start: lambda start=start: fit(start) for start in ("fista", "subsample")},
                            count)
        fista, lp_start = np.array(times["fista"]), np.array(times["subsample"])
        shape = f"{spec[1]} x {spec[2]} {spec[3]}" + (" (forced)" if mode == "forced" else "")
        print(f"{shape:<24} {np.median(fista):13.2f} {fista.min():6.2f} {np.median(lp_start):16.2f} "
              f"{lp_start.min():6.2f} {np.median(lp_start) / np.median(fista):6.2f}", flush=True)


def warm_band(sizes, repeats, bands, offset=ISSUE_OFFSET):
    """Whole soft-SFM fits (C = 1, the table's data at d = 2000) with the band of rows
    a warm solve gives the samples nearest its start's margin (``rowgen.WARM_BAND``)
    set to each of ``bands`` (0: no band), interleaved ``repeats`` times in one process:
    process CPU seconds (medians), simplex iterations of the whole fit and of its
    costliest LP (they repeat exactly from run to run), each against the first band's,
    and whether the selections agree."""
    from sfmlearn import SupportFeatureMachine
    from sfmlearn.lp.rowgen import tuning as rowgen
    default_band = rowgen.WARM_BAND
    first = bands[0]
    print(f"{'n':>6} {'band':>5} {'CPU median':>11} {'min':>7} {'iterations':>11} "
          f"{'costliest LP':>13} {'features':>9}   (CPU, iterations) / band {first:g}'s")
    for n in sizes:
        X, y = soft_data(n, 2000, offset=offset)
        found = {}

        def fit(band, X=X, y=y):
            rowgen.WARM_BAND = band
            try:
                with _recorded_solves() as solved:
                    started = time.process_time()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        model = SupportFeatureMachine(C=1.0).fit(X, y)
                    seconds = time.process_time() - started
            finally:
                rowgen.WARM_BAND = default_band
            iterations = [solution.info["iterations"] for _, solution, _ in solved]
            found[band] = (sum(iterations), max(iterations), model.get_support(indices=True))
            return seconds

        times = interleaved({band: lambda band=band: fit(band) for band in bands}, repeats)
        for band in bands:
            total, costliest, support = found[band]
            same = "" if np.array_equal(support, found[first][2]) else "  OTHER FEATURES"
            print(f"{n:>6} {band:>5g} {np.median(times[band]):11.2f} {min(times[band]):7.2f} "
                  f"{total:>11} {costliest:>13} {support.size:>9}   "
                  f"{np.median(times[band]) / np.median(times[first]):.2f}x, "
                  f"{total / found[first][0]:.2f}x{same}", flush=True)


def hard(n, d):
    spec = ("hard", n, d)
    new = fit_sfm(spec, {})
    full = fit_sfm(spec, {"solver": "highs"})
    print(f"hard SFM n={n} d={d}: auto {new[0]:.2f} s ({new[1]} features), full LP "
          f"{full[0]:.2f} s ({full[1]} features), full/auto {full[0] / new[0]:.1f}x")


def paper(reference):
    from _shapes import PAPER_SHAPES
    print(f"{'shape':<22} {'new s':>7} {'ref s':>7} {'ref/new':>8} {'k new':>6} {'k ref':>6}")
    for name in PAPER_SHAPES:
        spec = ("paper", name)
        new = min((fit_sfm(spec, {}) for _ in range(3)), key=lambda r: r[0])
        ref = min((reference.fit(spec, {}) for _ in range(3)), key=lambda r: r[0])
        print(f"{name:<22} {new[0]:7.3f} {ref[0]:7.3f} {ref[0] / new[0]:8.2f} {new[1]:>6} {ref[1]:>6}",
              flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["table", "large", "slope", "hard", "paper", "start",
                                           "fista", "band"], required=True)
    parser.add_argument("--reference", default=REFERENCE,
                        help="git revision timed as the reference engine ('none' to skip)")
    parser.add_argument("--sizes", default=None, help="comma-separated n (table, slope; start: the first)")
    parser.add_argument("--hard-d", type=int, default=10_000)
    parser.add_argument("--bands", default="3,0",
                        help="band: comma-separated values of rowgen.WARM_BAND to compare")
    parser.add_argument("--repeats", type=int, default=None,
                        help="fista: fits per start and shape (default 5); band: fits per "
                             "setting and n (default 3); table: interleaved runs per n, "
                             "medians (default 1)")
    parser.add_argument("--offset", type=float, default=ISSUE_OFFSET,
                        help="soft data: each class's mean on an informative feature is "
                             f"+-offset (default {ISSUE_OFFSET:g}; "
                             f"{HARDER_OFFSET:g}: harder data, whose solution grows with n)")
    parser.add_argument("--slope-data", choices=["soft", "hard"], default="soft",
                        help="slope: the soft SFM on the table's data, or the hard SFM on "
                             "hard_data (a solution of fixed size)")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(HERE, os.pardir, "src"))  # this tree (the child: its own)
    import sfmlearn
    print(f"this tree: {os.path.dirname(sfmlearn.__file__)}; reference: {args.reference}")
    sizes = None if args.sizes is None else [int(s) for s in args.sizes.split(",")]
    print(f"load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    reference = None if args.reference == "none" else Reference(args.reference)
    if args.part == "table":
        table(reference, sizes or [100, 1000, 2000, 4000], args.repeats or 1, args.offset)
    elif args.part == "large":
        large(args.offset)
    elif args.part == "slope":
        slope(sizes or [500, 1000, 2000, 4000, 8000, 16000], args.slope_data, args.offset)
    elif args.part == "hard":
        hard(10_000, args.hard_d)
    elif args.part == "start":
        start(sizes[0] if sizes else 4000, args.offset)
    elif args.part == "fista":
        fista_start(sizes or [2000, 4000], args.repeats or 5, args.offset)
    elif args.part == "band":
        warm_band(sizes or [2000, 4000, 8000], args.repeats or 3,
                  [float(b) for b in args.bands.split(",")], args.offset)
    else:
        paper(reference)
    print(f"load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
