"""The library never prints to stdout.

Each check runs in a fresh interpreter with stdout a pipe, as when a user pipes a script's
output into another program: C stdio is then fully buffered, so text a C library leaves
in its buffer only appears at exit, and only a subprocess sees it. highspy 1.16 writes
its banner this way the first time a ``highspy.Highs()`` is constructed in a process.
"""

import os
import subprocess
import sys
import textwrap

import sfmlearn

_FIT_EVERY_FAMILY = textwrap.dedent("""
    import warnings
    import numpy as np
    import sfmlearn as s
    from sklearn.model_selection import StratifiedKFold

    warnings.simplefilter("ignore")  # stderr may hold warnings; stdout must stay empty
    rng = np.random.default_rng(0)
    n, d = 24, 12
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    X = rng.standard_normal((n, d))
    X[:, :3] += 1.5 * y[:, None]
    y01 = (y > 0).astype(int)
    classifiers = [
        s.SupportFeatureMachine(),
        s.SupportFeatureMachine(C=1.0),
        s.SupportFeatureMachine(method="exact", time_limit=5),
        s.WestonZeroNormSVM(),
        s.RLP(), s.L1SVM(), s.FSV(),
        s.L2L1SVM(), s.L2L0SVM(max_iter=3), s.QuadraticFSV(max_iter=3),
        s.KernelTargetAlignment(max_iter=3),
        s.PotentialSVM(),
        s.NonlinearPSVM(hidden_layer_sizes=(3,), max_iter=50, random_state=0),
        s.HardMarginSVM(), s.SoftDoubleMinOver(C=1.0, max_iter=50),
        s.GolubClassifier(n_features_to_select=3),
        s.SupportFeatureMachineCV(Cs=3, cv=2, n_repeats=1), s.WestonZeroNormSVMCV(Cs=3, cv=2, n_repeats=1),
    ]
    for model in classifiers:
        model.fit(X, y01)
    s.PotentialSVR().fit(X, X[:, 0] + 0.1 * rng.standard_normal(n))
    s.RepetitiveSFM(max_repetitions=2).fit(X, y01)
    s.minimum_support(X, y01, time_limit=5)
    s.sfm_path(X, y01, 3)
    s.StabilitySelection(Cs=3, n_pairs=2, random_state=0).fit(X, y01)
    s.compare_budgets(X, y01, budgets=(1, 2), cv=2, inner_cv=2, automatic=s.SupportFeatureMachineCV(Cs=3, cv=2, n_repeats=1))
    s.chance_report(X, y01, s.SupportFeatureMachine(C=1.0), n_permutations=2, random_state=0)
    s.estimate_informative_fraction(X, y01, informative_every=2, svm_Cs=[1.0], cv=StratifiedKFold(2),
                                    inner_cv=2, max_repetitions=4, random_state=0)
    from sfmlearn.panels import make_cell_counts
    counts, types, _ = make_cell_counts(90, 60, 3, 2, random_state=0)
    s.MarkerPanel(n_markers=4, n_screen=10, random_state=0).fit(counts, types)
""")

# Every estimator class and main function sfmlearn exports, so a new family added to
# the public API without being added above fails here.
_EXERCISED = {
    "SupportFeatureMachine", "WestonZeroNormSVM", "RLP", "L1SVM", "FSV", "L2L1SVM",
    "L2L0SVM", "QuadraticFSV", "KernelTargetAlignment", "PotentialSVM", "NonlinearPSVM",
    "HardMarginSVM", "SoftDoubleMinOver", "GolubClassifier", "PotentialSVR",
    "RepetitiveSFM", "minimum_support", "chance_report", "estimate_informative_fraction",
    "sfm_path", "SupportFeatureMachineCV", "WestonZeroNormSVMCV", "MarkerPanel",
    "compare_budgets", "StabilitySelection",
}
_NOT_FITTING = {"SFMScaler"}  # no solver inside


def _run(code, **kwargs):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, **kwargs)


def test_the_script_covers_every_public_family():
    assert set(sfmlearn.__all__) == _EXERCISED | _NOT_FITTING


def test_fitting_every_family_prints_nothing_to_stdout():
    result = _run(_FIT_EVERY_FAMILY)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""

