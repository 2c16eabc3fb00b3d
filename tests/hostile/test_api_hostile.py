"""A battery of bad API inputs: every one fails with a ValueError/TypeError
subclass whose message names the problem, or, where the input is legitimate, gives the
correct result (the same as the plain dense float64 input).

Each row: an id, a callable that runs the input, and the expectation --
``Raises(type, fragment)`` or ``Same(reference)`` / ``Works(check)``.
"""

import datetime
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.svm import LinearSVC

from sfmlearn import (
    FSV, L1SVM, L2L0SVM, L2L1SVM, RLP, GolubClassifier, HardMarginSVM, KernelTargetAlignment,
    NonlinearPSVM, PotentialSVM, PotentialSVR, QuadraticFSV, RepetitiveSFM, SFMScaler,
    SoftDoubleMinOver, SupportFeatureMachine, WestonZeroNormSVM, estimate_informative_fraction,
    minimum_support,
)
from sfmlearn.exceptions import DataValidationError
from sfmlearn.selection import fisher_score, golub_score, ml05_search, relief, t_score
from sfmlearn.selection.multiclass import OneVsOneSelector, OneVsRestSelector

_rng = np.random.default_rng(0)
X = _rng.standard_normal((20, 5))
Y = np.repeat([0, 1], 10)
X[:, 0] += 3.0 * Y  # feature 0 separates the classes


def soft():
    return SupportFeatureMachine(C=1.0)


def fitted():
    return soft().fit(X, Y)


def support_of(model, data, labels=Y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(data, labels).get_support().tolist()


REFERENCE = [True, False, False, False, False]


@dataclass
class Raises:
    error: type
    fragment: str


@dataclass
class Works:
    check: object  # callable(result) -> bool


def same_support(result):
    return result == REFERENCE


def with_column(values):
    out = X.copy()
    out[:, 3] = values
    return out


def frame_with(name, column):
    frame = pd.DataFrame(X, columns=list("abcde"))
    frame[name] = column
    return frame


def stored_zeros():
    A = sp.csr_array(np.where(np.abs(X) > 0.5, X, 0.0))
    A.data[::3] = 0.0  # explicit zeros kept in storage
    return A


def int64_frame():
    return pd.DataFrame(np.round(X * 10)).astype("Int64")


def float64_with_na():
    frame = pd.DataFrame(X).astype("Float64")
    frame.iloc[2, 1] = pd.NA
    return frame


def constant_column_named():
    with pytest.warns(UserWarning, match=r"1 of 5 features are constant .*names 'd'"):
        return soft().fit(pd.DataFrame(with_column(2.0), columns=list("abcde")), Y)


def unbalanced():
    rng = np.random.default_rng(1)
    return rng.standard_normal((100, 20)), np.r_[0, np.ones(99, dtype=int)]


V = ValueError
T = TypeError

CASES = [
    # -- X: values and types -------------------------------------------------------------
    ("X NaN", lambda: soft().fit(with_column(np.nan), Y), Raises(V, "NaN")),
    ("X inf", lambda: soft().fit(with_column(np.inf), Y), Raises(V, "infinite")),
    ("X complex", lambda: soft().fit(X + 1j, Y), Raises(V, "complex values")),
    ("X complex sparse", lambda: soft().fit(sp.csr_array(X + 0j), Y), Raises(V, "complex")),
    ("X complex objects", lambda: soft().fit(X.astype(object) + 1j, Y), Raises(V, "complex")),
    ("X complex DataFrame", lambda: soft().fit(pd.DataFrame(X + 1j), Y), Raises(V, "complex")),
    ("X dict object", lambda: soft().fit(np.array([[{"a": 1}] * 5] * 20, dtype=object), Y),
     Raises(T, "not numbers")),
    ("X text", lambda: soft().fit(np.full((20, 5), "abc"), Y), Raises(V, "non-numeric")),
    ("X text column", lambda: soft().fit(frame_with("e", ["x"] * 20), Y), Raises(V, "non-numeric")),
    ("X datetime64 array", lambda: soft().fit(np.arange(100).astype("datetime64[D]").reshape(20, 5), Y),
     Raises(V, "dates")),
    ("X datetime column", lambda: soft().fit(frame_with("when", pd.date_range("2020", periods=20)), Y),
     Raises(V, "column(s) ['when']")),
    ("X timedelta column", lambda: soft().fit(frame_with("dt", pd.to_timedelta(np.arange(20), "h")), Y),
     Raises(V, "durations")),
    ("X python datetimes", lambda: soft().fit(
        frame_with("d", [datetime.datetime(2020, 1, i + 1) for i in range(20)]), Y), Raises(V, "dates")),
    ("X 0 samples", lambda: soft().fit(X[:0], Y[:0]), Raises(V, "no samples")),
    ("X 1 sample", lambda: soft().fit(X[:1], Y[:1]), Raises(V, "1 sample")),
    ("X 0 features", lambda: soft().fit(X[:, :0], Y), Raises(V, "no features")),
    ("X 1-D", lambda: soft().fit(X[:, 0], Y), Raises(V, "must be 2-D")),
    ("X 3-D", lambda: soft().fit(X[:, :, None], Y), Raises(V, "must be 2-D")),
    ("X scalar", lambda: soft().fit(3.0, Y), Raises(V, "must be 2-D")),
    ("X mixed column names", lambda: soft().fit(frame_with(0, X[:, 0]), Y), Raises(V, "column names")),
    ("X all constant soft", lambda: soft().fit(np.ones((20, 5)), Y), Raises(V, "All 5 features are constant")),
    ("X all constant hard", lambda: SupportFeatureMachine().fit(np.ones((20, 5)), Y),
     Raises(V, "All 5 features are constant")),
    ("X all constant KTA", lambda: KernelTargetAlignment().fit(np.ones((20, 5)), Y), Raises(V, "constant")),
    ("X all constant L2L1", lambda: L2L1SVM().fit(np.ones((20, 5)), Y), Raises(V, "constant")),
    ("X all constant L2L0", lambda: L2L0SVM().fit(np.ones((20, 5)), Y), Raises(V, "constant")),
    ("X all constant PSVM", lambda: PotentialSVM().fit(np.ones((20, 5)), Y), Raises(V, "constant")),
    # legitimate inputs: the same selection as dense float64
    ("X bool", lambda: soft().fit(X > 0, Y).n_features_in_, Works(lambda r: r == 5)),
    ("X numeric strings", lambda: support_of(soft(), X.astype(str)), Works(same_support)),
    ("X float16", lambda: support_of(soft(), X.astype(np.float16)), Works(same_support)),
    ("X float32", lambda: support_of(soft(), X.astype(np.float32)), Works(same_support)),
    ("X pandas Int64", lambda: support_of(soft(), int64_frame()), Works(same_support)),
    ("X pandas Float64 NA", lambda: soft().fit(float64_with_na(), Y), Raises(V, "1 NaN")),
    ("X sparse stored zeros", lambda: support_of(soft(), stored_zeros()),
     Works(lambda r: r == support_of(soft(), stored_zeros().toarray()))),
    ("X sparse empty column", lambda: support_of(soft(), sp.csc_array(with_column(0.0))),
     Works(lambda r: r[0] and not r[3])),
    ("X coo", lambda: support_of(soft(), sp.coo_array(X)), Works(same_support)),
    ("X dok", lambda: support_of(soft(), sp.dok_array(X)), Works(same_support)),
    ("X bsr", lambda: support_of(soft(), sp.bsr_array(X)), Works(same_support)),
    ("X lil", lambda: support_of(soft(), sp.lil_array(X)), Works(same_support)),
    ("X times 1e300", lambda: support_of(soft(), X * 1e300), Works(same_support)),
    ("X times 1e-300", lambda: support_of(soft(), X * 1e-300), Works(same_support)),
    ("X constant column named", lambda: constant_column_named(), Works(lambda r: not r.support_[3])),
    # -- y ----------------------------------------------------------------------------
    ("y mismatched length", lambda: soft().fit(X, Y[:-1]), Raises(V, "different lengths")),
    ("y one class", lambda: soft().fit(X, np.zeros(20)), Raises(V, "only one class")),
    ("y three classes", lambda: soft().fit(X, np.arange(20) % 3), Raises(V, "binary")),
    ("y None labels", lambda: soft().fit(X, np.array([None] * 2 + [1] * 18, dtype=object)),
     Raises(V, "2 missing labels")),
    ("y NaN labels", lambda: soft().fit(X, np.r_[np.nan, Y[1:]]), Raises(V, "missing labels")),
    ("y pandas NA", lambda: soft().fit(X, pd.array([pd.NA] + [1] * 19, dtype="Int64")),
     Raises(V, "missing labels")),
    ("y mixed types", lambda: soft().fit(X, np.array([1, "a"] * 10, dtype=object)),
     Raises(V, "mixes label types")),
    ("y continuous", lambda: soft().fit(X, np.linspace(0, 1, 20)), Raises(V, "continuous")),
    ("y two columns", lambda: soft().fit(X, np.c_[Y, Y]), Raises(V, "1-D")),
    ("y complex", lambda: soft().fit(X, Y + 1j), Raises(V, "complex")),
    ("y None", lambda: soft().fit(X, None), Raises(V, "requires y")),
    ("y inf", lambda: soft().fit(X, np.r_[np.inf, Y[1:]]), Raises(V, "infinite")),
    ("y categorical", lambda: support_of(soft(), X, pd.Categorical(np.where(Y, "b", "a"))),
     Works(same_support)),
    ("y strings", lambda: support_of(soft(), X, np.where(Y, "sick", "well")), Works(same_support)),
    ("y booleans", lambda: support_of(soft(), X, Y.astype(bool)), Works(same_support)),
    ("y column vector", lambda: support_of(soft(), X, Y[:, None]), Works(same_support)),
    # -- fit arguments, predict ----------------------------------------------------------
    ("sample_weight SFM", lambda: soft().fit(X, Y, sample_weight=np.ones(20)),
     Raises(T, "SupportFeatureMachine.fit() got unexpected argument(s) ['sample_weight']")),
    ("sample_weight L1SVM", lambda: L1SVM().fit(X, Y, sample_weight=np.ones(20)), Raises(T, "L1SVM.fit()")),
    ("sample_weight KTA", lambda: KernelTargetAlignment().fit(X, Y, sample_weight=np.ones(20)),
     Raises(T, "class_weight")),
    ("predict wrong width", lambda: fitted().predict(X[:, :3]), Raises(V, "features")),
    ("predict NaN", lambda: fitted().predict(with_column(np.nan)), Raises(V, "NaN")),
    ("predict complex", lambda: fitted().predict(X + 1j), Raises(V, "complex")),
    ("transform 1-D", lambda: SFMScaler().fit(X).transform(X[0]), Raises(V, "2-D")),
    # -- composite estimators and functions -----------------------------------------------
    ("rSFM LinearSVC", lambda: RepetitiveSFM(LinearSVC()).fit(X, Y), Raises(V, "binary feature selector")),
    ("rSFM groups length", lambda: RepetitiveSFM().fit(X, Y, groups=[1, 2]), Raises(V, "groups")),
    ("rSFM groups None ids", lambda: RepetitiveSFM().fit(X, Y, groups=[None] * 20), Raises(V, "groups")),
    ("informative 1 vs 99", lambda: estimate_informative_fraction(*unbalanced(), informative_every=1),
     Raises(V, "outer cross-validation folds: the smallest class has 1 sample")),
    ("OvR no get_support", lambda: OneVsRestSelector(LinearSVC()).fit(X, np.arange(20) % 3),
     Raises(V, "get_support")),
    ("OvO None labels", lambda: OneVsOneSelector().fit(X, np.array([None] * 20, dtype=object)),
     Raises(V, "missing labels")),
    ("fisher complex", lambda: fisher_score(X + 1j, Y), Raises(V, "complex")),
    ("fisher three classes", lambda: fisher_score(X, np.arange(20) % 3), Raises(V, "two classes")),
    ("golub None labels", lambda: golub_score(X, [None] * 20), Raises(V, "missing labels")),
    ("t_score 1-D", lambda: t_score(X[:, 0], Y), Raises(V, "2-D")),
    ("relief NaN", lambda: relief(with_column(np.nan), Y), Raises(V, "NaN")),
    ("minimum_support NaN", lambda: minimum_support(with_column(np.nan), Y), Raises(V, "NaN")),
    ("ml05_search unknown model", lambda: ml05_search(LinearSVC()), Raises(V, "no grid")),
    ("ml05_search validation 0", lambda: ml05_search(FSV(), validation_size=0.0), Raises(V, "validation_size")),
    ("PSVR text target", lambda: PotentialSVR().fit(X, np.where(Y, "a", "b")), Raises(V, "numeric target")),
    ("HardMarginSVM complex", lambda: HardMarginSVM().fit(X + 1j, Y), Raises(V, "complex")),
]

# -- bad parameters: (estimator, parameters, fragment of the message) --------------------
BAD_PARAMETERS = [
    (SupportFeatureMachine, {"C": 0}, "'C' parameter"),
    (SupportFeatureMachine, {"C": -1.0}, "'C' parameter"),
    (SupportFeatureMachine, {"C": float("nan")}, "'C' parameter"),
    (SupportFeatureMachine, {"C": float("inf")}, "'C' parameter"),
    (SupportFeatureMachine, {"C": "1"}, "'C' parameter"),
    (SupportFeatureMachine, {"solver": "cplex"}, "'solver' parameter"),
    (SupportFeatureMachine, {"formulation": "dense"}, "'formulation' parameter"),
    (SupportFeatureMachine, {"equality": "means"}, "'equality' parameter"),
    (SupportFeatureMachine, {"method": "milp"}, "'method' parameter"),
    (SupportFeatureMachine, {"time_limit": 0}, "'time_limit' parameter"),
    (SupportFeatureMachine, {"max_iter": 0}, "'max_iter' parameter"),
    (SupportFeatureMachine, {"max_iter": 2.5}, "'max_iter' parameter"),
    (SupportFeatureMachine, {"tol": -1e-3}, "'tol' parameter"),
    (SupportFeatureMachine, {"refit": "magic"}, "'refit' parameter"),
    (SupportFeatureMachine, {"class_weight": "auto"}, "'class_weight' parameter"),
    (SupportFeatureMachine, {"class_weight": {0: 1.0}}, "no entry for classes"),
    (SupportFeatureMachine, {"class_weight": {0: 1.0, 1: -2.0}}, "must be positive"),
    (SupportFeatureMachine, {"scale": "yes"}, "'scale' parameter"),
    (SupportFeatureMachine, {"reweight_slack": None}, "'reweight_slack' parameter"),
    (WestonZeroNormSVM, {"C": -1.0}, "'C' parameter"),
    (WestonZeroNormSVM, {"refit": 3}, "'refit' parameter"),
    (RLP, {"solver": 1}, "'solver' parameter"),
    (RLP, {"max_iter": -1}, "'max_iter' parameter"),
    (L1SVM, {"lam": 1.0}, "'lam' parameter"),
    (L1SVM, {"lam": -0.1}, "'lam' parameter"),
    (L1SVM, {"lam": float("nan")}, "'lam' parameter"),
    (L1SVM, {"lam": "auto"}, "'lam' parameter"),
    (FSV, {"alpha": 0.0}, "'alpha' parameter"),
    (FSV, {"alpha": -5.0}, "'alpha' parameter"),
    (L2L1SVM, {"mu": 0.0}, "'mu' parameter"),
    (L2L1SVM, {"nu": -1.0}, "'nu' parameter"),
    (L2L0SVM, {"alpha": float("nan")}, "'alpha' parameter"),
    (L2L0SVM, {"mu": "10"}, "'mu' parameter"),
    (QuadraticFSV, {"lam": 2.0}, "'lam' parameter"),
    (QuadraticFSV, {"class_weight": "equal"}, "'class_weight' parameter"),
    (KernelTargetAlignment, {"kernel": "rbf"}, "'kernel' parameter"),
    (KernelTargetAlignment, {"sigma": "wide"}, "'sigma' parameter"),
    (KernelTargetAlignment, {"sigma": 0.0}, "'sigma' parameter"),
    (KernelTargetAlignment, {"theta0": 0.0}, "'theta0' parameter"),
    (KernelTargetAlignment, {"theta0": 1.5}, "'theta0' parameter"),
    (KernelTargetAlignment, {"threshold": -1.0}, "'threshold' parameter"),
    (KernelTargetAlignment, {"C": 0.0}, "'C' parameter"),
    (KernelTargetAlignment, {"rho": -1.0}, "'rho' parameter"),
    (KernelTargetAlignment, {"standardize": "yes"}, "'standardize' parameter"),
    (RepetitiveSFM, {"max_repetitions": 0}, "'max_repetitions' parameter"),
    (RepetitiveSFM, {"chance_alpha": 1.5}, "'chance_alpha' parameter"),
    (RepetitiveSFM, {"chance_cv": 1}, "'chance_cv' parameter"),
    (RepetitiveSFM, {"n_features_to_select": 1.5}, "'n_features_to_select' parameter"),
    (RepetitiveSFM, {"aggregate": "mode"}, "'aggregate' parameter"),
    (RepetitiveSFM, {"cv": "kfold"}, "'cv' parameter"),
    (RepetitiveSFM, {"n_features_to_select": 2, "n_subsets": 1}, "not both"),
    (RepetitiveSFM, {"informative_every": 2, "svm_Cs": [-1.0]}, "Cs must be positive"),
    (PotentialSVM, {"epsilon": -1.0}, "'epsilon' parameter"),
    (PotentialSVM, {"epsilon": float("nan")}, "'epsilon' parameter"),
    (PotentialSVM, {"C": 0.0}, "'C' parameter"),
    (PotentialSVM, {"n_features_to_select": 0}, "'n_features_to_select' parameter"),
    (PotentialSVM, {"n_features_to_select": 99}, "exceeds the number of features"),
    (PotentialSVM, {"tol": 0.0}, "'tol' parameter"),
    (PotentialSVR, {"epsilon": "a"}, "'epsilon' parameter"),
    (NonlinearPSVM, {"combine": "mean"}, "'combine' parameter"),
    (NonlinearPSVM, {"hidden_layer_sizes": (0,)}, "hidden_layer_sizes"),
    (NonlinearPSVM, {"hidden_layer_sizes": 10}, "'hidden_layer_sizes' parameter"),
    (NonlinearPSVM, {"error_ratio": 1.0}, "'error_ratio' parameter"),
    (NonlinearPSVM, {"weight_decay": -1.0}, "'weight_decay' parameter"),
    (SoftDoubleMinOver, {"C": 0.0}, "'C' parameter"),
    (SoftDoubleMinOver, {"kernel": "gauss"}, "'kernel' parameter"),
    (SoftDoubleMinOver, {"max_iter": 0}, "'max_iter' parameter"),
    (GolubClassifier, {"n_features": 0}, "'n_features' parameter"),
    (GolubClassifier, {"n_features": 1.5}, "'n_features' parameter"),
    (OneVsRestSelector, {"n_jobs": "all"}, "'n_jobs' parameter"),
]


def _target_for(estimator):
    return np.where(Y == 1, 1.5, -0.5) if isinstance(estimator, PotentialSVR) else Y


@pytest.mark.parametrize("case, run, expected", CASES, ids=[c[0] for c in CASES])
def test_bad_input(case, run, expected):
    if isinstance(expected, Raises):
        with pytest.raises(expected.error) as caught:
            run()
        assert expected.fragment in str(caught.value)
        assert isinstance(caught.value, (ValueError, TypeError))
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = run()
        assert expected.check(result)


@pytest.mark.parametrize("make, params, fragment", BAD_PARAMETERS,
                         ids=[f"{m.__name__}-{p}" for m, p, _ in BAD_PARAMETERS])
def test_bad_parameter(make, params, fragment):
    estimator = make(**params)
    with pytest.raises((ValueError, TypeError)) as caught:
        estimator.fit(X, _target_for(estimator))
    assert fragment in str(caught.value)
    # one failure type for every parameter error: scikit-learn's InvalidParameterError
    # (a ValueError and TypeError), or our DataValidationError for data-dependent checks
    assert isinstance(caught.value, ValueError)


def test_the_battery_is_large_enough():
    assert len(CASES) + len(BAD_PARAMETERS) >= 70
    assert DataValidationError.__mro__[1] is ValueError


def test_hard_margin_svm_says_the_classes_are_not_separable():
    """It said "The selected features do not separate ...": it selects no features."""
    xor = np.array([[0, 0], [1, 1], [0, 1], [1, 0]], dtype=float)
    with pytest.raises(ValueError, match="two classes are not linearly separable") as caught:
        HardMarginSVM().fit(xor, [1, 1, 0, 0])
    assert "selected features" not in str(caught.value)


def test_repetitive_sfm_estimate_says_its_folds_cannot_keep_a_class():
    X_u, y_u = unbalanced()
    with pytest.raises(ValueError, match="outer cross-validation folds: the smallest class has 1 sample"):
        RepetitiveSFM(SupportFeatureMachine(C=1.0), informative_every=1,
                      max_repetitions=2).fit(X_u, y_u)
    # the soft rSFM itself runs; its chance test says why it cannot
    with pytest.warns(UserWarning, match=r"chance test .* cannot run \(the smallest class has 1"):
        RepetitiveSFM(SupportFeatureMachine(C=1.0), max_repetitions=1).fit(X_u, y_u)
