"""RepetitiveSFM: stop rules, ranking, the refit path, the scikit-learn contract."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn import RepetitiveSFM, SFMScaler, SupportFeatureMachine
from sfmlearn.datasets import make_basic, make_random_labels
from sfmlearn.exceptions import DataValidationError, NotSeparableError, SolverError
from sfmlearn.lp.separability import minimum_slack_hyperplane


@pytest.fixture(scope="module")
def redundant():
    """40 samples, 150 features, the first 30 informative (mu = 1)."""
    return make_basic(40, 150, 30, class_distance=1.0, positive_fraction=0.5, separable=False,
                      random_state=3)


@pytest.fixture(scope="module")
def exhausted(redundant):
    X, y = redundant
    return RepetitiveSFM(SupportFeatureMachine(refit=None)).fit(X, y)


# -- stop rules -------------------------------------------------------------------------
def test_hard_rsfm_stops_when_the_remaining_features_do_not_separate(redundant, exhausted):
    X, y = redundant
    assert exhausted.stop_reason_ == "not_separable"
    remaining = exhausted.ranking_ > exhausted.ranking_[exhausted.support_].max()
    assert remaining.sum() == X.shape[1] - sum(s.size for s in exhausted.subsets_)
    # The separability LP confirms: no hyperplane strictly separates on what is left.
    _, _, slack = minimum_slack_hyperplane(SFMScaler().fit_transform(X)[:, remaining], y)
    assert slack.any()
    # ... while every subset found does separate the training data (hard SFM).
    for t in range(exhausted.n_repetitions_):
        decision = X @ exhausted.coefs_[[t]].toarray().ravel() + exhausted.intercepts_[t]
        assert np.all(np.where(y > 0, 1, -1) * decision >= -1e-9)


def test_max_repetitions_stops_early(redundant, exhausted):
    X, y = redundant
    rsfm = RepetitiveSFM(SupportFeatureMachine(refit=None), max_repetitions=3).fit(X, y)
    assert rsfm.stop_reason_ == "max_repetitions" and rsfm.n_repetitions_ == 3
    for a, b in zip(rsfm.subsets_, exhausted.subsets_[:3]):
        np.testing.assert_array_equal(a, b)


def test_a_run_under_a_time_limit_stops_with_an_error_saying_how_far_it_got(redundant, monkeypatch):
    """Checked before every repetition: the clock moves 10 s per reading, so the check
    after 2 repetitions is the first past 25 s; no result cut short is returned."""
    from sfmlearn.selection.repetitive import path as repetition_path
    from sfmlearn.utils.time_limit import TimeLimitError, time_limit

    X, y = redundant
    clock = iter(range(100))
    monkeypatch.setattr("sfmlearn.utils.time_limit.time.time", lambda: 10.0 * next(clock))
    with time_limit(25.0), pytest.raises(TimeLimitError, match="after 2 repetitions of the repetitive SFM$"):
        repetition_path.run_repetitions(SupportFeatureMachine(refit=None), X, np.where(y > 0, 1, -1))


def test_features_run_out(rng):
    y = np.repeat([0, 1], 10)
    sign = np.where(y == 1, 1.0, -1.0)
    X = np.column_stack([sign * rng.uniform(0.5, 2.0, 20) for _ in range(4)] + [np.full(20, 3.0)])
    rsfm = RepetitiveSFM().fit(X, y)
    assert rsfm.stop_reason_ == "features_exhausted"
    assert sorted(np.concatenate(rsfm.subsets_).tolist()) == [0, 1, 2, 3]  # never the constant
    assert rsfm.ranking_[4] == 5


def test_soft_rsfm_stops_when_a_repetition_no_longer_beats_chance(rng):
    y = np.repeat([0, 1], 30)
    X = rng.standard_normal((60, 300))
    X[:, :3] += 1.2 * np.where(y == 1, 1.0, -1.0)[:, None]
    rsfm = RepetitiveSFM(SupportFeatureMachine(C=1.0), random_state=0).fit(X, y)
    assert rsfm.stop_reason_ == "chance"
    assert rsfm.stop_p_value_ > 0.05 and np.all(rsfm.chance_p_values_ <= 0.05)
    assert set(np.concatenate(rsfm.subsets_)) == {0, 1, 2}  # the informative ones, then stop


def test_soft_rsfm_on_random_labels_finds_nothing():
    X, y = make_random_labels(60, 300, random_state=0)
    rsfm = RepetitiveSFM(SupportFeatureMachine(C=1.0), random_state=0).fit(X, y)
    assert rsfm.stop_reason_ == "chance" and rsfm.n_repetitions_ == 0
    assert not rsfm.support_.any()


def test_soft_fit_selecting_nothing_stops():
    X, y = make_basic(60, 100, 5, class_distance=0.3, positive_fraction=0.8, separable=False,
                      random_state=0)
    with pytest.warns(UserWarning, match="selected no feature"):
        rsfm = RepetitiveSFM(SupportFeatureMachine(C=1e-4, equality="mean_margin")).fit(X, y)
    assert rsfm.stop_reason_ == "no_features_selected" and rsfm.n_repetitions_ == 0


def _fail_from(monkeypatch, repetition):
    """Make every refit from ``repetition`` (1-based) on raise the engine's SolverError."""
    from sfmlearn.selection._base import SubsetRefitter

    fit, calls = SubsetRefitter.fit, []

    def failing(self, *args, **kwargs):
        calls.append(1)
        if len(calls) >= repetition:
            raise SolverError("HiGHS stopped with model status 'Unknown' in a restricted master.")
        return fit(self, *args, **kwargs)

    monkeypatch.setattr(SubsetRefitter, "fit", failing)


def test_a_later_repetition_the_solver_fails_on_stops_the_path_and_keeps_the_subsets(
        redundant, exhausted, monkeypatch):
    X, y = redundant
    X = np.c_[X, np.ones(y.size)]  # a constant column: never selectable, so never "left"
    _fail_from(monkeypatch, 4)
    with pytest.warns(UserWarning, match=r"stopped after 3 repetitions: the linear programs of "
                                         r"repetition 4 could not be solved \(HiGHS stopped .*'Unknown'") as caught:
        rsfm = RepetitiveSFM(SupportFeatureMachine(refit=None)).fit(X, y)
    assert rsfm.stop_reason_ == "solver_failed" and rsfm.n_repetitions_ == 3
    for a, b in zip(rsfm.subsets_, exhausted.subsets_[:3], strict=True):
        np.testing.assert_array_equal(a, b)
    left = X.shape[1] - 1 - sum(subset.size for subset in rsfm.subsets_)
    stopped = next(str(w.message) for w in caught if "stopped after" in str(w.message))
    assert f"the {left} selectable features left were not examined" in stopped


def test_a_chance_test_the_solver_fails_on_is_named_as_the_step_that_failed(rng, monkeypatch):
    from sfmlearn.selection.repetitive import path

    y = np.repeat([0, 1], 30)
    X = rng.standard_normal((60, 300))
    X[:, :3] += 1.2 * np.where(y == 1, 1.0, -1.0)[:, None]
    p_value, calls = path._ChanceTest.p_value, []

    def failing(self, exclude):
        calls.append(1)
        if len(calls) == 2:
            raise SolverError("HiGHS stopped with model status 'Unknown' in a restricted master.")
        return p_value(self, exclude)

    monkeypatch.setattr(path._ChanceTest, "p_value", failing)
    with pytest.warns(UserWarning, match=r"stopped after 1 repetitions: the linear programs of repetition 2 "
                                         r"\(in its chance test's fold fits\) could not be solved"):
        rsfm = RepetitiveSFM(SupportFeatureMachine(C=1.0), random_state=0).fit(X, y)
    assert rsfm.stop_reason_ == "solver_failed" and rsfm.n_repetitions_ == 1


def test_a_first_repetition_the_solver_fails_on_is_raised(redundant, monkeypatch):
    X, y = redundant
    _fail_from(monkeypatch, 1)
    with pytest.raises(SolverError, match="Unknown"):
        RepetitiveSFM(SupportFeatureMachine(refit=None)).fit(X, y)


def test_every_stop_reason_is_said_for_people():
    from sfmlearn.analysis.repeat import STOPS
    from sfmlearn.selection.repetitive import STOP_REASONS

    assert set(STOPS) == set(STOP_REASONS)


def test_hard_rsfm_on_inseparable_data_raises(rng):
    X = rng.standard_normal((30, 2))
    y = rng.integers(0, 2, 30)
    with pytest.raises(NotSeparableError, match="soft base estimator"):
        RepetitiveSFM().fit(X, y)


# -- ranking and subsets --------------------------------------------------------------
def test_ranking_is_consistent_with_the_subsets(redundant, exhausted):
    X, _ = redundant
    r = exhausted
    sizes = [s.size for s in r.subsets_by_size_]
    assert sizes == sorted(sizes)
    # Stable: equal sizes keep the order found.
    found = {tuple(s): t for t, s in enumerate(r.subsets_)}
    order = [found[tuple(s)] for s in r.subsets_by_size_]
    for a, b, size_a, size_b in zip(order, order[1:], sizes, sizes[1:]):
        assert size_a < size_b or a < b
    ranked = np.concatenate(r.subsets_by_size_)
    assert np.unique(ranked).size == ranked.size  # subsets are disjoint
    np.testing.assert_array_equal(r.ranking_[ranked], np.arange(1, ranked.size + 1))
    assert np.all(np.delete(r.ranking_, ranked) == ranked.size + 1)
    # Within a subset, by decreasing |w| of the SFM weights on the scaled features
    # (refit=None: coefs_ are the SFM's own weights, input space = scaled * factor).
    factor = SFMScaler().fit(X).feature_factor_
    for t, subset in enumerate(r.subsets_):
        w_scaled = np.abs(r.coefs_[[t]].toarray().ravel()[subset] / factor[subset])
        assert np.all(np.diff(w_scaled) <= 1e-12)


def test_subsets_equal_plain_sfm_fits_on_the_remaining_columns(redundant, exhausted):
    X, y = redundant
    left = np.arange(X.shape[1])
    for subset in exhausted.subsets_[:3]:
        plain = SupportFeatureMachine(refit=None, solver="highs").fit(X[:, left], y)
        assert set(left[plain.support_]) == set(subset)
        left = np.setdiff1d(left, subset)


def test_warm_and_cold_refits_agree(redundant, exhausted):
    X, y = redundant
    cold = RepetitiveSFM(SupportFeatureMachine(refit=None), warm_start=False, max_repetitions=8).fit(X, y)
    for a, b in zip(cold.subsets_, exhausted.subsets_):
        np.testing.assert_array_equal(a, b)


def test_other_selectors_are_refitted_on_column_subsets():
    X, y = make_basic(40, 12, 3, random_state=0)
    rsfm = RepetitiveSFM(SelectKBest(f_classif, k=3)).fit(X, y)
    assert rsfm.stop_reason_ == "features_exhausted" and rsfm.n_repetitions_ == 4
    by_score = np.argsort(-f_classif(X, y)[0], kind="stable")
    for t, subset in enumerate(rsfm.subsets_):
        assert set(subset) == set(by_score[3 * t: 3 * t + 3])


# -- transform --------------------------------------------------------------------------
def test_transform_keeps_top_ranked_features_or_first_subsets(redundant, exhausted):
    X, y = redundant
    top = RepetitiveSFM(SupportFeatureMachine(refit=None), n_features_to_select=7).fit(X, y)
    np.testing.assert_array_equal(np.flatnonzero(top.get_support()),
                                  np.sort(np.argsort(exhausted.ranking_, kind="stable")[:7]))
    assert top.transform(X).shape == (40, 7)
    first_two = RepetitiveSFM(SupportFeatureMachine(refit=None), n_subsets=2).fit(X, y)
    expected = np.union1d(*exhausted.subsets_by_size_[:2])
    np.testing.assert_array_equal(np.flatnonzero(first_two.get_support()), expected)
    assert exhausted.get_support().sum() == sum(s.size for s in exhausted.subsets_)


def test_parameter_errors(redundant):
    X, y = redundant
    with pytest.raises(ValueError, match="not both"):
        RepetitiveSFM(n_features_to_select=3, n_subsets=2).fit(X, y)
    with pytest.raises(ValueError, match="'chance_alpha' parameter"):
        RepetitiveSFM(chance_alpha=1.5).fit(X, y)
    with pytest.raises(DataValidationError, match="groups"):
        RepetitiveSFM().fit(X, y, groups=np.zeros(3))


def test_a_classifier_without_a_selection_is_named_as_the_problem(redundant):
    """RepetitiveSFM(LinearSVC()) names the missing get_support, not an AttributeError."""
    X, y = redundant
    with pytest.raises(ValueError, match="needs a binary feature selector .* got LinearSVC"):
        RepetitiveSFM(LinearSVC()).fit(X, y)


def test_sample_weight_is_refused_by_name(redundant):
    X, y = redundant
    with pytest.raises(TypeError, match=r"RepetitiveSFM.fit\(\) .*sample_weight is not supported"):
        RepetitiveSFM().fit(X, y, sample_weight=np.ones(len(y)))


def test_quiet_by_default_verbose_on_request(redundant, capsys):
    X, y = redundant
    RepetitiveSFM(max_repetitions=2).fit(X, y)
    assert capsys.readouterr().err == ""
    RepetitiveSFM(max_repetitions=2, verbose=1).fit(X, y)
    err = capsys.readouterr().err
    assert "repetition 2:" in err and "max_repetitions" in err


def test_sparse_input_gives_the_dense_subsets(redundant, exhausted):
    X, y = redundant
    X = np.where(np.abs(X) > 1.0, X, 0.0)  # really sparse
    # Each run reports the base SFM's per-fit warning once, summarised.
    with pytest.warns(UserWarning, match=r"4 of 4 fits .* only weakly") as record:
        dense = RepetitiveSFM(SupportFeatureMachine(refit=None), max_repetitions=4).fit(X, y)
        sparse = RepetitiveSFM(SupportFeatureMachine(refit=None), max_repetitions=4).fit(sp.csr_array(X), y)
    assert len(record) == 2
    for a, b in zip(dense.subsets_, sparse.subsets_):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(sparse.transform(sp.csr_array(X)).toarray(), dense.transform(X))


def test_the_separation_witness_changes_no_subset(redundant, monkeypatch):
    """On sparse data every subset separates the samples only weakly, so each repetition
    asks whether the remaining features separate them strictly; the witness of the first
    answer (:class:`~sfmlearn.lp.separability.SeparationWitness`) answers later ones
    without the LP while its features remain, and the subsets are those of a run that
    solves every LP."""
    from sfmlearn.lp import separability
    from sfmlearn.selection import _placement

    X, y = redundant
    X = np.where(np.abs(X) > 1.0, X, 0.0)
    solved = []
    lp = separability.minimum_slack_hyperplane
    monkeypatch.setattr(separability, "minimum_slack_hyperplane",
                        lambda *args, **kwargs: solved.append(1) or lp(*args, **kwargs))

    def fit():
        solved.clear()
        with pytest.warns(UserWarning, match="only weakly"):
            return RepetitiveSFM(SupportFeatureMachine(refit=None), max_repetitions=6).fit(X, y), len(solved)

    kept, with_witness = fit()
    count = _placement.inseparable_count
    monkeypatch.setattr(_placement, "inseparable_count", lambda X, y, witness: count(X, y, None))
    every, without = fit()
    assert 0 < with_witness < without
    for a, b in zip(kept.subsets_, every.subsets_, strict=True):
        np.testing.assert_array_equal(a, b)


# The rSFM is binary: its tags say so (classifier_tags.multi_class = False), so
# scikit-learn's transformer checks give it two-class targets and every check runs.
@parametrize_with_checks(
    [RepetitiveSFM(SupportFeatureMachine(C=1.0), max_repetitions=2, chance_alpha=None)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("n_subsets", [2, None])
def test_from_repetitions_sets_what_fit_sets(n_subsets):
    from sklearn.utils._param_validation import InvalidParameterError

    from sfmlearn.selection.repetitive import run_repetitions

    X, y = make_basic(40, 120, 12, class_distance=1.0, random_state=3)
    params = dict(max_repetitions=4, n_subsets=n_subsets, chance_alpha=None)
    fitted = RepetitiveSFM(**params).fit(X, y)
    path = run_repetitions(SupportFeatureMachine(), X, y, max_repetitions=4, chance_alpha=None)
    built = RepetitiveSFM.from_repetitions(path, np.unique(y), [f"f{j}" for j in range(120)], **params)
    for name in ("support_", "ranking_", "n_subsets_", "n_repetitions_", "stop_reason_", "classes_",
                 "n_features_in_"):
        np.testing.assert_array_equal(getattr(built, name), getattr(fitted, name))
    assert [s.tolist() for s in built.subsets_by_size_] == [s.tolist() for s in fitted.subsets_by_size_]
    assert built.get_feature_names_out().tolist() == [f"f{j}" for j in np.flatnonzero(fitted.support_)]
    with pytest.raises(InvalidParameterError, match='"auto" needs the data'):
        RepetitiveSFM.from_repetitions(path, np.unique(y), n_subsets="auto")
    with pytest.raises(InvalidParameterError, match="informative_every=2 needs the data"):
        RepetitiveSFM.from_repetitions(path, np.unique(y), informative_every=2)
    with pytest.raises(DataValidationError, match="two class labels, got \\[0, 1, 2\\]"):
        RepetitiveSFM.from_repetitions(path, [0, 1, 2])
    with pytest.raises(DataValidationError, match="3 feature names for a run on 120 features"):
        RepetitiveSFM.from_repetitions(path, np.unique(y), ["a", "b", "c"])


def test_from_repetitions_of_a_run_that_found_nothing_raises_as_fit():
    from sfmlearn.selection.repetitive import run_repetitions

    X, y = make_random_labels(20, 3, random_state=0)  # 20 samples, 3 features: not separable
    path = run_repetitions(SupportFeatureMachine(), X, y, max_repetitions=3, chance_alpha=None)
    assert path.n_repetitions == 0 and path.stop_reason == "not_separable"
    with pytest.raises(NotSeparableError) as from_fit:
        RepetitiveSFM(max_repetitions=3, chance_alpha=None).fit(X, y)
    with pytest.raises(NotSeparableError) as from_run:
        RepetitiveSFM.from_repetitions(path, np.unique(y), max_repetitions=3, chance_alpha=None)
    assert str(from_run.value) == str(from_fit.value)


def test_the_subsets_classifier_is_the_same_whatever_numpys_global_state():
    # With more features than samples LinearSVC's dual solver draws a coordinate order;
    # unseeded it would draw from NumPy's global generator and differ from process to
    # process (the two fits below differed before the seed was fixed).
    from sklearn.base import clone

    from sfmlearn.selection.repetitive.estimator import SUBSETS_CLASSIFIER

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 100)), np.r_[np.zeros(10), np.ones(10)]
    np.random.seed(1)
    first = clone(SUBSETS_CLASSIFIER).fit(X, y)[-1].coef_
    np.random.seed(2)
    second = clone(SUBSETS_CLASSIFIER).fit(X, y)[-1].coef_
    np.testing.assert_array_equal(first, second)


def test_a_refit_with_other_settings_keeps_nothing_of_the_last_fit():
    X, y = make_basic(40, 60, 10, class_distance=1.0, random_state=0)
    model = RepetitiveSFM(max_repetitions=2, n_subsets="auto", subsets_cv=3, informative_every=1, cv=3,
                          random_state=0).fit(X, y)
    assert hasattr(model, "informative_fraction_") and hasattr(model, "n_subsets_scores_")
    model.set_params(n_subsets=None, informative_every=None).fit(X[:, :30], y)
    fresh = RepetitiveSFM(max_repetitions=2, cv=3, random_state=0).fit(X[:, :30], y)
    assert sorted(k for k in vars(model) if k.endswith("_")) == sorted(k for k in vars(fresh) if k.endswith("_"))


def test_more_subsets_than_found_keeps_those_found_and_says_so():
    X, y = make_basic(40, 60, 10, class_distance=1.0, random_state=0)
    with pytest.warns(UserWarning, match="n_subsets=50 asks for more subsets than the 2"):
        model = RepetitiveSFM(max_repetitions=2, n_subsets=50).fit(X, y)
    assert model.n_subsets_ == len(model.subsets_) == 2
    assert model.support_.sum() == sum(s.size for s in model.subsets_)


def test_the_warning_summary_counts_the_chance_tests_fits_too():
    from sklearn.exceptions import ConvergenceWarning

    from sfmlearn.datasets import make_weston

    X, y = make_weston(n_samples=40, n_noise=30, random_state=1)
    model = RepetitiveSFM(SupportFeatureMachine(C=1.0, max_iter=1), max_repetitions=3, chance_cv=5)
    with pytest.warns(ConvergenceWarning) as caught:
        model.fit(X, y)
    summary = [str(w.message) for w in caught if "fits of the repetitive SFM warned" in str(w.message)]
    last = {"max_repetitions": 0, "chance": 6}.get(model.stop_reason_, 1)  # the stopping fit (and its folds)
    n_fits = model.n_repetitions_ * (1 + 5) + last
    assert summary and summary[0].startswith(f"{n_fits} of {n_fits} fits")


def test_the_estimates_svm_stage_checks_the_time_limit(monkeypatch):
    """The fold runs finish within the limit (3 repetitions each); the limit passes in the
    SVM stage, which says how many of its evaluations were done."""
    from sfmlearn import estimate_informative_fraction
    from sfmlearn.selection.repetitive import informative
    from sfmlearn.utils.time_limit import TimeLimitError, time_limit

    X, y = make_basic(40, 100, 20, class_distance=2.0, random_state=0)

    def passed_in_the_svm_stage(done):
        if "SVM evaluations" in done:
            raise TimeLimitError(60, done)

    monkeypatch.setattr(informative, "check_time_limit", passed_in_the_svm_stage)
    with time_limit(60), pytest.raises(TimeLimitError, match=r"after 1 of the estimate's \d+ SVM evaluations"):
        estimate_informative_fraction(X, y, informative_every=1, cv=3, inner_cv=3, max_repetitions=3,
                                      random_state=0)
