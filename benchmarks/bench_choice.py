"""Where the automatic choice of the soft SFM loses its small-budget edge, and which rule keeps it.

    PYTHONPATH=src python benchmarks/bench_choice.py [--datasets colon,leukemia] [--repeats 3]
    PYTHONPATH=src python benchmarks/bench_choice.py --part time [--datasets ...] [--rounds 3]
    PYTHONPATH=src python benchmarks/bench_choice.py --part noise [--rounds 10]
    PYTHONPATH=src python benchmarks/bench_choice.py --part calibration [--datasets colon,leukemia]
    PYTHONPATH=src python benchmarks/bench_choice.py --part oracle [--datasets ARCENE] [--repetitions 100]
    PYTHONPATH=src python benchmarks/bench_choice.py --part rules [--datasets ...] [--outer-seed 0 1 2 3 4]

Every outer training fold fits the soft-SFM path once per inner fold (``inner repeats`` x
5-fold) and once on the whole outer training set, on the grid that
:class:`~sfmlearn.SupportFeatureMachineCV` uses. Every path point is scored on the inner
held-out fold with each *classifier on the selected features* (the SFM's own hyperplane,
a soft linear SVM, logistic regression), and the *choice rules* are then applied to the
same fits:

* ``C best`` / ``C 1se``: the grid index with the best mean inner score (today's rule), or
  the sparsest within one standard error;
* ``k best`` / ``k 1se``: the inner folds aligned by the number of selected features
  (:func:`sfmlearn.model_selection.scores_within_budget`), the budget chosen, and the
  outer path's densest fit within it (the first of equally dense fits, the default);
  ``k best last``: the same with the last of equally dense fits;
* with one inner repeat (``x1``) or all (``xR``).

Printed per data set: the nested (outer) balanced accuracy of every rule x classifier,
its mean features, the inner selection score of the chosen point (optimistic), the path's
oracle (the best outer point with at most k features, picked with the test fold: not an
estimate), the plain hard and soft SFM, and l1-logistic CV. The outer folds are the ones
of ``benchmarks/bench_peers.py``. ``--part time`` times the default choice and its variants
against the rule of sfmlearn 0.1 (one split, aligned by C) on all of each data set, and
the default of ``--reference`` (the last revision whose default was that rule; its source
extracted with ``git archive`` and timed in a child process, interleaved; each round's
ratio of the two defaults is printed too, the spread behind the median's verdict);
``--part noise`` gives the nested estimate and the selection score of the default
choice on pure noise (n = 40, d = 2000, random labels), one seed per round.
``--part oracle``: the best held-out score among the default choice's candidates (path
and unions, ``--repetitions``) within each of ``--caps`` features, picked with the test
fold: the ceiling of a perfect choice among them, not an estimate.
``--part rules``: the default choice fitted on every outer training part of
``bench_peers.py`` (the same shuffled samples, so its cells are the peer table's), and
other rules applied to its aligned inner scores, each picking one of the same outer
candidates (``_choice_rules.py``); and how far the inner mean score predicts the outer
one at all (rank correlation; the default's choice against a candidate drawn at random
and the best one, picked with the test part).
``--part calibration``: the default choice's ``predict_proba`` and the path-only choice's
(``max_repetitions=0``), scored by nested log-loss and Brier score (5-fold outer CV on all
of each data set).
"""

import _env  # noqa: F401  (one BLAS thread)

import argparse
import tempfile
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.linear_model import LogisticRegressionCV
from sklearn.metrics import balanced_accuracy_score, brier_score_loss, make_scorer
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MaxAbsScaler, StandardScaler
from sklearn.svm import LinearSVC

from bench_peers import FIXED_SPLITS, datasets, shuffled_training_parts
from _choice_rules import RULES as BUDGET_RULES, inner_information, outer_choice
from _interleave import interleaved
from _reference import RevisionTree, data_for_child
from sfmlearn import SupportFeatureMachine, SupportFeatureMachineCV, sfm_path
from sfmlearn.exceptions import NotSeparableError
from sfmlearn.optim.logistic import logistic_newton
from sfmlearn.model_selection import choose_budget, densest_within_budget, scores_within_budget
from sfmlearn.selection import default_Cs
from sfmlearn.selection.sfm.fold_candidates import fold_candidates
from sfmlearn.selection.sfm.softness_cv import CV_MAX_REPETITIONS, CV_N_CS, choose_C

class BalancedLogistic(ClassifierMixin, BaseEstimator):
    """L2 logistic regression (C = 1, balanced classes) on standardised columns: the
    SFM's ``refit="logistic"`` (the package's Newton solver; scikit-learn's lbfgs set-up
    dominates hundreds of tiny fits)."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        positive = y == self.classes_[1]
        weights = np.where(positive, y.size / (2.0 * positive.sum()), y.size / (2.0 * (~positive).sum()))
        self.mean_, self.sd_ = X.mean(axis=0), X.std(axis=0)
        self.sd_[self.sd_ == 0] = 1.0
        self.coef_, self.intercept_ = logistic_newton((X - self.mean_) / self.sd_, positive, weights, penalty=1.0)
        return self

    def predict(self, X):
        return self.classes_[((X - self.mean_) / self.sd_ @ self.coef_ + self.intercept_ > 0).astype(int)]


CLASSIFIERS = {
    "own": None,
    "svm": lambda: make_pipeline(StandardScaler(), LinearSVC(C=1.0, class_weight="balanced", random_state=0)),
    "logistic": BalancedLogistic,
}


def point_scores(path, X_test, y_test, X_train, y_train):
    """(classifier -> scores per path point) on the held-out part."""
    out = {}
    for name, make in CLASSIFIERS.items():
        scores = []
        for estimator, support in zip(path.estimators, path.supports):
            if make is None:
                predicted = estimator.predict(X_test)
            else:
                columns = np.flatnonzero(support)
                model = make().fit(X_train[:, columns], y_train)
                predicted = model.predict(X_test[:, columns])
            scores.append(balanced_accuracy_score(y_test, predicted))
        out[name] = np.array(scores)
    return out


def dense(X):
    return X.toarray() if hasattr(X, "toarray") else np.asarray(X)


def outer_fold(X, y, train, test, base, n_Cs, repeats):
    """Inner and outer path scores of one outer fold."""
    Xtr, ytr = X[train], y[train]
    Cs = default_Cs(Xtr, ytr, estimator=base, n_Cs=n_Cs)
    inner = {name: [] for name in CLASSIFIERS}
    inner_sizes = []
    for r in range(repeats):
        for itr, ite in StratifiedKFold(5, shuffle=True, random_state=r).split(Xtr, ytr):
            path = sfm_path(Xtr[itr], ytr[itr], Cs * (ytr.size / itr.size), estimator=base)
            for name, s in point_scores(path, dense(Xtr[ite]), ytr[ite], dense(Xtr[itr]), ytr[itr]).items():
                inner[name].append(s)
            inner_sizes.append(path.n_features)
    path = sfm_path(Xtr, ytr, Cs, estimator=base)
    outer = point_scores(path, dense(X[test]), y[test], dense(Xtr), ytr)
    return {"inner": {k: np.array(v) for k, v in inner.items()}, "inner_sizes": np.array(inner_sizes),
            "outer": outer, "outer_sizes": path.n_features}


def apply_rule(rule, scores, sizes, outer_sizes):
    """Index on the outer path chosen by ``rule`` from the inner scores, and its inner score."""
    if rule.startswith("C"):
        mean, sem = scores.mean(axis=0), scores.std(axis=0) / np.sqrt(scores.shape[0])
        i = choose_C(mean, sem, sizes.mean(axis=0), rule.split()[1])
        return i, mean[i]
    budgets = np.arange(1, int(sizes.max()) + 1)
    # "last": the paths read backwards, so that their first equally dense fit is the last one
    order = slice(None, None, -1) if rule.endswith("last") else slice(None)
    aligned = scores_within_budget(scores[:, order], sizes[:, order], budgets)
    b = choose_budget(aligned, budgets, rule.split()[1])
    i = densest_within_budget(outer_sizes[order], budgets[b])
    i = np.arange(outer_sizes.size)[order][i] if i >= 0 else 0
    return int(i), np.nanmean(aligned[:, b])


RULES = ["C best", "C 1se", "k best", "k 1se", "k best last"]


def summarise(folds, repeats):
    rows = {}
    for clf in CLASSIFIERS:
        for rule in RULES:
            for used in sorted({1, min(2, repeats), repeats}):
                accs, feats, inner = [], [], []
                for fold in folds:
                    n_inner = 5 * used
                    i, selection_score = apply_rule(rule, fold["inner"][clf][:n_inner],
                                                    fold["inner_sizes"][:n_inner], fold["outer_sizes"])
                    accs.append(fold["outer"][clf][i])
                    feats.append(fold["outer_sizes"][i])
                    inner.append(selection_score)
                rows[f"{rule} x{used} {clf}"] = (np.mean(accs), np.std(accs) / np.sqrt(len(accs)),
                                                  np.mean(feats), np.mean(inner))
    for k in (1, 2, 3, 5, 10):
        accs = []
        for fold in folds:
            ok = fold["outer_sizes"] <= k
            accs.append(max(fold["outer"]["own"][ok]) if ok.any() else np.nan)
        rows[f"oracle <= {k} own"] = (np.nanmean(accs), np.nan, k, np.nan)
    return rows


def references(X, y, folds):
    models = {"SFM hard": SupportFeatureMachine(), "SFM C=1 balanced": SupportFeatureMachine(C=1.0, class_weight="balanced"),
              "l1-logistic CV": make_pipeline(MaxAbsScaler() if sp.issparse(X) else StandardScaler(), LogisticRegressionCV(
                  Cs=np.logspace(-3, 2, 12), l1_ratios=(1.0,), solver="liblinear",
                  cv=StratifiedKFold(5, shuffle=True, random_state=0), scoring="balanced_accuracy",
                  random_state=0, use_legacy_attributes=False))}
    rows = {}
    for name, model in models.items():
        accs, feats = [], []
        for train, test in folds:
            try:
                fitted = clone(model).fit(X[train], y[train])
            except NotSeparableError:
                continue
            accs.append(balanced_accuracy_score(y[test], fitted.predict(X[test])))
            last = fitted.steps[-1][1] if hasattr(fitted, "steps") else fitted
            feats.append(int(last.support_.sum()) if hasattr(last, "support_") else np.count_nonzero(last.coef_))
        rows[name] = (np.mean(accs), np.std(accs) / np.sqrt(len(accs)), np.mean(feats), np.nan)
    return rows


#: The automatic choice of sfmlearn 0.1 (one split, by C, hard SVM refit) and variants of
#: today's default, timed against each other by ``--part time``.
TIMED = {
    "by C, one split (0.1)": dict(Cs=20, align="C", n_repeats=1, class_weight=None, refit="svm"),
    "default": {},
    "10 repetitions": dict(max_repetitions=10),
    "path only": dict(max_repetitions=0),
}


#: The last revision whose SupportFeatureMachineCV default was the 0.1 rule (2026-11-28):
#: the automatic choice a user had before the aligned, repeated choice with unions.
REFERENCE = "ba19445"


def reference_fit(tree, X, y):
    """A function timing ``SupportFeatureMachineCV(random_state=0).fit(X, y)`` with the
    sfmlearn of ``tree`` (a :class:`_reference.RevisionTree`) in a child process; the data
    pass through a temporary file, and the child times the fit alone."""
    temporary = tempfile.TemporaryDirectory(prefix="sfm-choice-")
    code = (data_for_child(temporary.name, X, y) + "import json, time, warnings; "
            "warnings.simplefilter('ignore'); from sfmlearn import SupportFeatureMachineCV; "
            "started = time.perf_counter(); SupportFeatureMachineCV(random_state=0).fit(X, y); "
            "print(json.dumps(time.perf_counter() - started))")

    def run():
        try:
            return tree.run(code)
        except RuntimeError as failure:  # the earlier code may fail where today's does not
            print(f"  the default of {tree.revision} failed: {failure}", flush=True)
            return np.nan
    run.temporary = temporary  # the data files are removed with the function
    return run


def time_choices(X, y, rounds, tree=None):
    """Fit seconds of every TIMED variant on all of (X, y), interleaved, and of the default
    of ``tree``'s revision when given: (median per variant, every round's per variant)."""
    def fit(options):
        def run():
            started = time.perf_counter()
            SupportFeatureMachineCV(random_state=0, **options).fit(X, y)
            return time.perf_counter() - started
        return run

    fits = {name: fit(options) for name, options in TIMED.items()}
    if tree is not None:
        fits[f"default of {tree.revision}"] = reference_fit(tree, X, y)
    seconds = interleaved(fits, rounds)
    failed = {name: int(np.isnan(values).sum()) for name, values in seconds.items()}
    for name, count in failed.items():
        if count:
            print(f"  {name}: {count} of {rounds} rounds failed; the median is over the others", flush=True)
    return ({name: float(np.nanmedian(values)) if failed[name] < rounds else np.nan
             for name, values in seconds.items()}, seconds)


def noise_estimates(seeds, n=40, d=2000):
    """Per seed on pure noise (random labels): the nested estimate of the default choice
    (5-fold outer CV) and its inner selection score (the best aligned mean)."""
    rows = []
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        X, y = rng.normal(size=(n, d)), rng.permutation(np.repeat([0, 1], n // 2))
        model = SupportFeatureMachineCV(random_state=seed)
        outer = StratifiedKFold(5, shuffle=True, random_state=seed)
        nested = cross_val_score(model, X, y, cv=outer, scoring="balanced_accuracy").mean()
        fitted = model.fit(X, y)
        complete = fitted.budget_results_["n_folds_within"] == fitted.n_splits_
        rows.append((nested, fitted.budget_results_["mean_test_score"][complete].max()))
    return np.array(rows)


def calibration(X, y):
    """Nested log-loss and Brier score of the default choice and the path-only choice."""
    from sklearn.model_selection import StratifiedKFold, cross_validate

    outer = StratifiedKFold(5, shuffle=True, random_state=0)
    positive = np.unique(y)[1]
    brier = make_scorer(brier_score_loss, response_method="predict_proba", greater_is_better=False,
                        pos_label=positive)
    rows = {}
    for variant, model in (("default", SupportFeatureMachineCV(random_state=0)),
                           ("path only", SupportFeatureMachineCV(max_repetitions=0, random_state=0))):
        scores = cross_validate(model, X, y, cv=outer, scoring={"log_loss": "neg_log_loss", "brier": brier})
        rows[variant] = (-scores["test_log_loss"].mean(), -scores["test_brier"].mean())
    return rows


def candidate_oracle(X, y, folds, max_repetitions, caps):
    """Per cap k: the mean over the outer folds of the best held-out balanced accuracy among
    the default choice's candidates (the path and the unions of ``max_repetitions``
    repetitions, fitted on the outer training part) with at most k features, picked with
    the test labels: what a perfect choice among these candidates would reach."""
    base = SupportFeatureMachine(class_weight="balanced")
    y_signed = np.where(y == np.unique(y)[1], 1, -1)
    best = {k: [] for k in caps}
    largest = []
    for train, test in folds:
        # fold_candidates fits at C n / n_train: give it the training part's own grid at n_train / n
        Cs = default_Cs(X[train], y_signed[train], estimator=base, n_Cs=CV_N_CS) * (train.size / y.size)
        scores, supports, _ = fold_candidates(base, X, y_signed, train, test, Cs, "balanced_accuracy",
                                              max_repetitions)
        sizes = supports.sum(axis=1)
        largest.append(sizes.max())
        for k in caps:
            best[k].append(scores[sizes <= k].max() if (sizes <= k).any() else np.nan)
    # a cap that some fold has no candidate within is not a ceiling over all folds: NaN
    return {k: float(np.mean(v)) for k, v in best.items()}, float(np.mean(largest))


def rule_folds(X, y, folds):
    """Per outer fold: the default choice's aligned inner scores and budgets, and its
    outer candidates' test scores and sizes (``_choice_rules.outer_choice``). Raises if
    the candidates or the ``best`` rule's score differ from the fitted estimator's own."""
    y_signed = np.where(y == np.unique(y)[1], 1, -1)
    base = SupportFeatureMachine(class_weight="balanced")
    out = []
    for train, test in shuffled_training_parts(folds):
        model = SupportFeatureMachineCV(random_state=0).fit(X[train], y[train])
        results = model.budget_results_
        # fold_candidates fits at C n / n_train: the model's grid at n_train / n gives its own fits
        scores, supports, _ = fold_candidates(base, X, y_signed, train, test, model.Cs_ * (train.size / y.size),
                                              "balanced_accuracy", CV_MAX_REPETITIONS)
        fold = {"budgets": results["n_features"], "scores": scores, "sizes": supports.sum(axis=1),
                "aligned": np.array([results[f"split{f}_test_score"] for f in range(model.n_splits_)])}
        own = balanced_accuracy_score(y[test], model.predict(X[test]))
        if supports.shape != model.candidate_supports_.shape or (supports != model.candidate_supports_).any() \
                or not np.isclose(outer_choice(fold, BUDGET_RULES["best"])[0], own):
            raise RuntimeError("the outer candidates differ from the fitted default's")
        out.append(fold)
    return out


def rules_report(name, draws):
    """Lines of ``--part rules`` for one data set; ``draws``: outer seed -> :func:`rule_folds`.
    Returns them and per rule the (accuracy, features) over all draws."""
    lines = [f"\n{name}: balanced accuracy % · mean features of the outer candidate each rule picks "
             f"(the same candidates), per draw of the outer folds and over all"]
    lines.append(f"  {'rule':20s}" + "".join(f"{'draw ' + str(seed):>16s}" for seed in draws) + f"{'all':>16s}")
    overall = {}
    for rule_name, rule in BUDGET_RULES.items():
        cells, picks = [], []
        for folds in draws.values():
            chosen = np.array([outer_choice(fold, rule) for fold in folds])
            picks.append(chosen)
            cells.append(f"{100 * chosen[:, 0].mean():7.1f} · {chosen[:, 1].mean():6.1f}")
        every = np.vstack(picks)
        overall[rule_name] = (100 * every[:, 0].mean(), every[:, 1].mean())
        lines.append(f"  {rule_name:20s}" + "".join(f"{cell:>16s}" for cell in cells)
                     + f"{overall[rule_name][0]:7.1f} · {overall[rule_name][1]:6.1f}")
    info = [inner_information(fold) for folds in draws.values() for fold in folds]
    mean = {key: np.nanmean([row[key] for row in info]) for key in info[0]}
    lines.append(f"  inner information over {len(info)} outer folds: rank correlation of inner mean and outer score "
                 f"{mean['spearman']:.2f}; outer score of the default's choice {100 * mean['chosen']:.1f}, "
                 f"of a candidate drawn at random {100 * mean['random_candidate']:.1f}, of the best candidate "
                 f"(picked with the test part) {100 * mean['best_candidate']:.1f}")
    return lines, overall


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="colon,leukemia")
    parser.add_argument("--part", choices=["accuracy", "time", "noise", "calibration", "oracle", "rules"],
                        default="accuracy")
    parser.add_argument("--outer-seed", type=int, nargs="+", default=[0],
                        help="--part rules: draws of bench_peers' 5 x 2 CV folds (fixed splits run once)")
    parser.add_argument("--repetitions", type=int, default=CV_MAX_REPETITIONS, help="--part oracle")
    parser.add_argument("--caps", default="5,10,50,100,500,2000", help="--part oracle: feature caps")
    parser.add_argument("--rounds", type=int, default=3, help="--part time: interleaved rounds")
    parser.add_argument("--reference", default=REFERENCE,
                        help="--part time: git revision whose default is timed too ('none' to skip)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-Cs", type=int, default=20)
    parser.add_argument("--class-weight", default="balanced")
    args = parser.parse_args(argv)
    wanted = args.datasets.split(",")
    if args.part == "noise":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rows = noise_estimates(args.rounds)
        print(f"pure noise, n = 40, d = 2000, {len(rows)} seeds: nested estimate {100 * rows[:, 0].mean():.1f} % "
              f"(SD {100 * rows[:, 0].std():.1f}), selection score {100 * rows[:, 1].mean():.1f} % "
              f"(SD {100 * rows[:, 1].std():.1f})")
        return
    if args.part == "calibration":
        for name, (X, y, folds, scheme) in datasets(False).items():
            if name in wanted:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    rows = calibration(X, y)
                print(f"{name}: nested log-loss / Brier score (5-fold outer CV; chance 0.693 / 0.25)")
                for variant, (log_loss, brier) in rows.items():
                    print(f"  {variant:10s} {log_loss:.3f} / {brier:.3f}", flush=True)
        return
    if args.part == "oracle":
        caps = [int(k) for k in args.caps.split(",")]
        for name, (X, y, folds, scheme) in datasets(False).items():
            if name in wanted:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    best, largest = candidate_oracle(X, y, folds, args.repetitions, caps)
                print(f"\n{name} ({scheme}): best candidate within k features, picked with the test fold "
                      f"(path + unions of {args.repetitions} repetitions; largest union {largest:.0f} on average)")
                print("  " + "  ".join(f"k <= {k}: {100 * value:.1f}" for k, value in best.items())
                      + "  (nan: a fold has no candidate within k)", flush=True)
        return
    if args.part == "rules":
        draws, schemes = {}, {}
        for draw, seed in enumerate(args.outer_seed):
            for name, (X, y, folds, scheme) in datasets(False, seed).items():
                if name in wanted and not (draw and name in FIXED_SPLITS):  # a fixed split: one draw
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        draws.setdefault(name, {})[seed] = rule_folds(X, y, folds)
                    schemes[name] = scheme
                    print(f"{name}, draw {seed}: fitted", flush=True)
        summary = {}
        for name, of_set in draws.items():
            lines, summary[name] = rules_report(f"{name} ({schemes[name]})", of_set)
            print("\n".join(lines), flush=True)
        print("\nper set over all draws, and the sum of the accuracies")
        print(f"  {'rule':20s}" + "".join(f"{name[:14]:>17s}" for name in summary) + f"{'sum':>8s}")
        for rule_name in BUDGET_RULES:
            cells = [summary[name][rule_name] for name in summary]
            print(f"  {rule_name:20s}" + "".join(f"{acc:8.1f} · {n:6.1f}" for acc, n in cells)
                  + f"{sum(acc for acc, _ in cells):8.1f}")
        return
    if args.part == "time":
        tree = None if args.reference == "none" else RevisionTree(args.reference)
        for name, (X, y, folds, scheme) in datasets(False).items():
            if name in wanted:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    seconds, rounds = time_choices(X, y, args.rounds, tree)
                rule = seconds["by C, one split (0.1)"]
                earlier = seconds.get(f"default of {args.reference}", np.nan)
                print(f"\n{name}: fit seconds (median of {args.rounds} interleaved rounds), ratio to the 0.1 rule"
                      + (f" and to the default of {args.reference}" if tree else ""))
                for variant, value in seconds.items():
                    print(f"  {variant:24s} {value:8.2f} s  {value / rule:5.2f}x"
                          + (f"  {value / earlier:5.2f}x" if tree else ""), flush=True)
                if tree:  # the spread of the verdict: each round's ratio of the two defaults
                    each = np.asarray(rounds["default"]) / np.asarray(rounds[f"default of {args.reference}"])
                    print(f"  default / default of {args.reference}, round by round: "
                          + ", ".join(f"{ratio:.2f}x" for ratio in each), flush=True)
        return
    base = SupportFeatureMachine(class_weight=None if args.class_weight == "none" else args.class_weight)
    for name, (X, y, folds, scheme) in datasets(False).items():
        if name not in wanted:
            continue
        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits = [outer_fold(X, y, train, test, base, args.n_Cs, args.repeats) for train, test in folds]
            rows = {**summarise(fits, args.repeats), **references(X, y, folds)}
        print(f"\n{name} ({scheme}, {len(folds)} outer folds, {time.perf_counter() - started:.0f} s)")
        print(f"{'rule / classifier':28s} {'nested %':>9s} {'SE':>5s} {'features':>8s} {'selection score %':>18s}")
        for key, (acc, se, feat, inner) in rows.items():
            print(f"{key:28s} {100 * acc:9.1f} {100 * se:5.1f} {feat:8.1f} {100 * inner:18.1f}", flush=True)


if __name__ == "__main__":
    main()
