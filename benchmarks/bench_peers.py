"""The peer table of the user guide (choosing C): the SFM family with automatic softness against the sparse
classifiers people use today, on the real data that ship with sfmlearn, in one run.

    PYTHONPATH=src python benchmarks/bench_peers.py [--quick] [--out results.csv] [--outer-seed 0 [1 ...]]
    python benchmarks/bench_peers.py --verdict results.csv [more.csv ...]

Evaluation (every method refitted inside each training fold, its own inner CV included):

* leukemia: train 38 -> test 34; ARCENE: train 100 -> validation 100 (one split each);
* colon (62 x 2000), DEXTER (training split, 300 x 20000 sparse), DOROTHEA (validation
  split, 350 x 100000 sparse): repeated stratified 2-fold CV, 5 repeats (5 x 2), drawn
  with ``--outer-seed`` (0 for the guide's table; another seed is another draw of the
  same scheme);
* Haxby subject 1, face vs house on the PyMVPA slice (216 volumes x 530 voxels): leave
  one run out (12 folds).

Per method and dataset: balanced accuracy (mean over folds +- standard error), mean number
of selected features (non-zero weights), median fit time. Inner CVs (SFM-CV, Weston CV,
rSFM auto and the scikit-learn *CV peers) use stratified 5-fold CV of the training part
(the SFM stability selection: 25 complementary pairs of its halves, threshold 0.6);
``--runs-as-groups`` makes every inner CV on Haxby leave one run out instead: the SFM
family's CV estimators, rSFM auto and the stability selection (its halves keep runs
whole) get the runs through ``fit``, the other peers an inner splitter over the training
part's runs (abess' integer ``cv=5`` stays as it is).
abess (GPL, never a dependency) is run only when it is installed. Every peer that
draws random numbers (liblinear's and saga's coordinate orders, the dual coordinate
descent of ``LinearSVC``) gets ``random_state=0``: left at None they draw from NumPy's
global generator, seeded anew in every process, and two runs of the same command then
gave other cells. ``--quick``: leukemia
and colon, one repeat of 2-fold CV on colon, fewer grid points.

At the end the run prints the verdicts of the table's two aims (``_peer_aims.py``): the
automatic choice within 2 points of the best peer with at most a fifth of its features,
and never more than 1 point below the plain hard or soft SFM; per draw, and on the means
over draws when ``--outer-seed`` names several. ``--verdict`` prints them for CSV tables
of earlier runs.
"""

import _env  # noqa: F401  (one BLAS thread)

import argparse
import inspect
import time
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.feature_selection import VarianceThreshold
from sklearn.linear_model import LogisticRegressionCV
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import (BaseCrossValidator, GridSearchCV, LeaveOneGroupOut, PredefinedSplit,
                                     RepeatedStratifiedKFold, StratifiedKFold)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MaxAbsScaler, StandardScaler
from sklearn.svm import LinearSVC

from sfmlearn import (RepetitiveSFM, StabilitySelection, SupportFeatureMachine, SupportFeatureMachineCV,
                      WestonZeroNormSVMCV)
from sfmlearn.datasets import load_colon, load_haxby, load_leukemia, load_nips2003
from sfmlearn.exceptions import NotSeparableError
from sfmlearn.diagnostics.budget_paths import SPARSE_INTERCEPT_SCALING, SPARSE_SAGA_TOL_FACTOR
from sfmlearn.preprocessing import SFMScaler

from _peer_aims import as_frame, read_tables, report


def _scaler(X):
    return MaxAbsScaler() if sp.issparse(X) else StandardScaler()


def _liblinear_intercept(X):
    """liblinear penalises the intercept like a weight; MaxAbsScaler does not centre sparse
    data, so there the intercept gets a large synthetic feature (as ``LogisticPath``'s)."""
    return {"intercept_scaling": SPARSE_INTERCEPT_SCALING} if sp.issparse(X) else {}


def _saga_tol(X, tol):
    """saga converges slowly on uncentred (sparse) columns: a tighter tolerance there."""
    return tol * SPARSE_SAGA_TOL_FACTOR if sp.issparse(X) else tol


def methods(X, quick):
    """name -> unfitted estimator (built per dataset: the peers' scaler follows sparsity)."""
    n_Cs = 8 if quick else 20
    inner = StratifiedKFold(5, shuffle=True, random_state=0)
    peer_Cs = np.logspace(-3, 2, 6 if quick else 12)
    out = {
        "SFM hard": SupportFeatureMachine(),
        "SFM soft C=1 balanced": SupportFeatureMachine(C=1.0, class_weight="balanced"),
        "SFM-CV (automatic)": SupportFeatureMachineCV(random_state=0),
        "SFM-CV, path only": SupportFeatureMachineCV(max_repetitions=0, random_state=0),
        "SFM-CV, 10 repetitions": SupportFeatureMachineCV(max_repetitions=10, random_state=0),
        "SFM-CV 1se": SupportFeatureMachineCV(select="1se", random_state=0),
        "SFM-CV by C, one split": SupportFeatureMachineCV(Cs=n_Cs, cv=inner, align="C", n_repeats=1,
                                                          class_weight=None, refit="svm"),
        "SFM stability, pi 0.6": StabilitySelection(random_state=0),
        "rSFM auto + SVM": make_pipeline(
            RepetitiveSFM(n_subsets="auto", max_repetitions=5 if quick else 10, random_state=0),
            SFMScaler(), LinearSVC(C=1.0, random_state=0)),
        "Weston CV": WestonZeroNormSVMCV(Cs=n_Cs, cv=inner),
        "L1 logistic CV": make_pipeline(_scaler(X), LogisticRegressionCV(
            Cs=peer_Cs, l1_ratios=(1.0,), solver="liblinear", cv=inner,
            scoring="balanced_accuracy", random_state=0, use_legacy_attributes=False, **_liblinear_intercept(X))),
        "L1 linear SVM CV": make_pipeline(_scaler(X), GridSearchCV(
            LinearSVC(penalty="l1", dual=False, max_iter=5000, random_state=0, **_liblinear_intercept(X)),
            {"C": peer_Cs}, cv=inner, scoring="balanced_accuracy")),
        "elastic-net logistic CV": make_pipeline(_scaler(X), LogisticRegressionCV(
            Cs=peer_Cs[::2], l1_ratios=(0.5,), solver="saga", cv=inner, scoring="balanced_accuracy",
            max_iter=300, tol=_saga_tol(X, 1e-3), random_state=0, use_legacy_attributes=False)),
        "linear SVM, all features": make_pipeline(_scaler(X), LinearSVC(C=1.0, max_iter=5000, random_state=0,
                                                                         **_liblinear_intercept(X))),
    }
    try:
        from abess.linear import LogisticRegression as AbessLogistic  # GPL: optional
        # abess refuses constant columns (ARCENE has some): drop them first
        out["abess logistic (CV)"] = make_pipeline(VarianceThreshold(), _scaler(X), AbessLogistic(cv=5))
    except ImportError:
        pass
    return out


def n_selected(model, n_features):
    """Non-zero weights of the fitted model (all features for models without a selection)."""
    last = model.steps[-1][1] if hasattr(model, "steps") else model
    if hasattr(model, "steps") and isinstance(model.steps[0][1], RepetitiveSFM):
        return int(model.steps[0][1].support_.sum())
    if hasattr(last, "best_estimator_"):
        last = last.best_estimator_
    if hasattr(last, "support_") and getattr(last, "support_").dtype == bool:
        return int(last.support_.sum())
    coef = getattr(last, "coef_", None)
    return n_features if coef is None else int(np.count_nonzero(np.ravel(coef)))


def haxby_face_house():
    """Haxby subject 1, face and house volumes of the PyMVPA slice: (X, labels, runs)."""
    h = load_haxby("slice")
    keep = np.isin(h.target, ["face", "house"])
    return h.data[keep], np.asarray(h.target)[keep], np.asarray(h.runs)[keep]


def datasets(quick, outer_seed=0):
    """name -> (X, y in 0/1, list of (train, test) index pairs, scheme); the 5 x 2 CV
    folds drawn with ``outer_seed``. Haxby's runs, for ``--runs-as-groups``, come from
    :func:`haxby_face_house`."""
    out = {}
    leuk = load_leukemia()
    X = np.vstack([leuk.X_train, leuk.X_test])
    y = np.r_[leuk.y_train, leuk.y_test]
    n = len(leuk.y_train)
    out["leukemia"] = (X, y, [(np.arange(n), np.arange(n, y.size))], "train 38 -> test 34")
    colon = load_colon()
    out["colon"] = (colon.data, colon.target, None, "5x2 CV")
    if not quick:
        a = load_nips2003("arcene")
        X = np.vstack([a.X_train, a.X_valid])
        y = np.r_[a.y_train, a.y_valid]
        n = len(a.y_train)
        out["ARCENE"] = (X, y, [(np.arange(n), np.arange(n, y.size))], "train 100 -> valid 100")
        d = load_nips2003("dexter")
        out["DEXTER"] = (sp.csr_array(d.X_train), d.y_train, None, "5x2 CV (training split)")
        Xd, yd = load_nips2003("dorothea", return_X_y=True)
        out["DOROTHEA"] = (sp.csr_array(Xd), yd, None, "5x2 CV (validation split)")
        Xh, yh, runs = haxby_face_house()
        out["Haxby face/house"] = (Xh, yh, list(LeaveOneGroupOut().split(Xh, yh, runs)), "leave one run out")
    resolved = {}
    for name, (X, y, folds, scheme) in out.items():
        if folds is None:
            repeats = 1 if quick else 5
            folds = list(RepeatedStratifiedKFold(n_splits=2, n_repeats=repeats,
                                                 random_state=outer_seed).split(X, y))
        y = np.asarray(y)
        resolved[name] = (X, (y == np.unique(y)[1]).astype(int), folds, scheme)  # 0/1 for abess
    return resolved


def groups_parameter(model):
    """The fit parameter through which ``model`` takes groups: ``groups``, a pipeline
    step's ``<step>__groups``, or None."""
    if "groups" in inspect.signature(model.fit).parameters:
        return "groups"
    for name, step in getattr(model, "steps", []):
        if "groups" in inspect.signature(step.fit).parameters:
            return f"{name}__groups"
    return None


def shuffled_training_parts(folds):
    """The folds with every training part's samples shuffled (one generator seeded 0 per
    table cell), as every method of the table sees them."""
    rng = np.random.default_rng(0)
    return [(rng.permutation(train), test) for train, test in folds]


def evaluate(model, X, y, folds, groups=None):
    """Fit on every training part (samples shuffled: abess' inner folds are not
    stratified) and score the test part; a fold whose fit fails is noted and skipped, and
    the table counts the folds that were scored. With ``groups``, a model that takes
    groups (:func:`groups_parameter`: the SFM family's CV estimators and the repetitive
    SFM's automatic choice) gets the training part's, so that its inner CV leaves one
    group out, and every inner splitter given as a parameter (one ending in ``cv``)
    becomes one that leaves one of the training part's groups out."""
    scores, counts, seconds, notes = [], [], [], set()
    takes_groups = groups_parameter(model) if groups is not None else None
    for train, test in shuffled_training_parts(folds):
        fitted = clone(model)
        if groups is not None:  # a splitter given as a parameter ignores fit's groups
            fitted.set_params(**{name: PredefinedSplit(groups[train]) for name, value in fitted.get_params().items()
                                 if name.endswith("cv") and isinstance(value, BaseCrossValidator)})
        started = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fitted.fit(X[train], y[train], **({takes_groups: groups[train]} if takes_groups else {}))
        except NotSeparableError:
            notes.add("not separable in a training fold")
            continue
        except Exception as exc:  # a peer's failure is a cell of the table, not the end of the run
            notes.add(f"{type(exc).__name__}: {str(exc)[:80]}")
            continue
        seconds.append(time.perf_counter() - started)
        scores.append(balanced_accuracy_score(y[test], fitted.predict(X[test])))
        counts.append(n_selected(fitted, X.shape[1]))
    if not scores:
        return {"bal_acc": np.nan, "se": np.nan, "n_features": np.nan, "fit_seconds": np.nan,
                "folds": 0, "note": "; ".join(sorted(notes))}
    se = np.std(scores, ddof=1) / np.sqrt(len(scores)) if len(scores) > 1 else np.nan
    return {"bal_acc": float(np.mean(scores)), "se": float(se), "n_features": float(np.mean(counts)),
            "fit_seconds": float(np.median(seconds)), "folds": len(scores),
            "note": "; ".join(sorted(notes))}


FIXED_SPLITS = ("leukemia", "ARCENE", "Haxby face/house")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=None, help="also write the table as CSV")
    parser.add_argument("--only", nargs="*", help="restrict to these dataset names")
    parser.add_argument("--methods", nargs="*", help="restrict to the methods whose name starts with one of these")
    parser.add_argument("--runs-as-groups", action="store_true",
                        help="Haxby: every inner CV leaves one run out (see the module docstring)")
    parser.add_argument("--outer-seed", type=int, nargs="+", default=[0],
                        help="the seeds of the 5 x 2 CV folds of colon, DEXTER and DOROTHEA, one draw each "
                        "(the sets with a fixed split run in the first draw only)")
    parser.add_argument("--verdict", nargs="+", metavar="CSV",
                        help="print the aims' verdicts of tables written by --out, without fitting")
    args = parser.parse_args(argv)
    if args.verdict:
        print("\n".join(report(read_tables(args.verdict))))
        return None
    rows = []
    for draw, outer_seed in enumerate(args.outer_seed):
        for name, (X, y, folds, scheme) in datasets(args.quick, outer_seed).items():
            if (args.only and name not in args.only) or (draw and name in FIXED_SPLITS):
                continue
            groups = haxby_face_house()[2] if args.runs_as_groups and name == "Haxby face/house" else None
            for method, model in methods(X, args.quick).items():
                if args.methods and not any(method.startswith(prefix) for prefix in args.methods):
                    continue
                result = evaluate(model, X, y, folds, groups)
                rows.append({"data": name, "scheme": scheme, "outer_seed": outer_seed, "method": method, **result})
                print(f"{name:18s} {method:26s} {100 * result['bal_acc']:5.1f} +- {100 * result['se']:4.1f}  "
                      f"{result['n_features']:8.1f} feat  {result['fit_seconds']:7.2f} s  "
                      f"{result['folds']}/{len(folds)} folds  {result['note']}",
                      flush=True)
                if args.out:
                    pd.DataFrame(rows).to_csv(args.out, index=False)
    table = as_frame(rows) if rows else None
    if table is not None:
        print("\n".join(report(table)))
    return table


if __name__ == "__main__":
    main()
