"""The informative-fraction estimate: sigmoid fits, decisions, end to end, parallel runs."""

import numpy as np
import pytest
from joblib import parallel_config

from sfmlearn import RepetitiveSFM, SupportFeatureMachine, estimate_informative_fraction
from sfmlearn.exceptions import DataValidationError
from sfmlearn.experiments.informative_fraction import make_redundant
from sfmlearn.selection.repetitive.sigmoid import SigmoidFit, choose_estimate, fit_informative_sigmoid
from sfmlearn.plotting.repetitive import informative_fraction_figure

FAST = {"estimator": SupportFeatureMachine(refit="center"), "svm_Cs": [0.01, 1.0, 100.0]}


def sigmoid(x, a0, a1, a2, a3):
    return a0 + a1 / (1 + np.exp(-(x - a2) / a3))


# -- fits and the tangent -----------------------------------------------------------------
def test_free_fit_recovers_the_sigmoid_and_its_tangent_crossing():
    x = np.linspace(0, 1, 501)
    a0, a1, a2, a3 = 0.05, 0.45, 0.3, 0.04
    free, restricted = fit_informative_sigmoid(x, sigmoid(x, a0, a1, a2, a3))
    assert free.stable
    np.testing.assert_allclose(free.params, [a0, a1, a2, a3], rtol=1e-4, atol=1e-6)
    # The tangent at the inflexion: through (a2, f(a2)) with the numerical slope there.
    h = 1e-6
    slope = (sigmoid(a2 + h, a0, a1, a2, a3) - sigmoid(a2 - h, a0, a1, a2, a3)) / (2 * h)
    assert free.slope == pytest.approx(slope, rel=1e-6)
    expected = a2 + (0.5 - sigmoid(a2, a0, a1, a2, a3)) / slope
    assert free.crossing == pytest.approx(expected, rel=1e-4)
    assert free.tangent(free.crossing) == pytest.approx(0.5)
    estimate, used, reason = choose_estimate(free, restricted)
    assert used == "free" and estimate == pytest.approx(expected, rel=1e-4) and reason == ""


def test_restricted_fit_crossing_is_a2_plus_2_a3():
    x = np.linspace(0, 1, 401)
    _, restricted = fit_informative_sigmoid(x, sigmoid(x, 0.0, 0.5, 0.4, 0.05))
    assert restricted.stable
    np.testing.assert_allclose(restricted.params, [0.4, 0.05], rtol=1e-4)
    assert restricted.crossing == pytest.approx(0.5)


def test_decision_rules():
    stable_free = SigmoidFit("free", np.array([0.0, 0.5, 0.3, 0.05]))
    unstable_free = SigmoidFit("free", np.array([0.0, 0.5, 0.3, 0.05]), ("made up problem",))
    restricted = SigmoidFit("restricted", np.array([0.2, 0.05]))
    assert choose_estimate(stable_free, restricted)[:2] == (pytest.approx(0.4), "free")
    estimate, used, reason = choose_estimate(unstable_free, restricted)
    assert (estimate, used) == (pytest.approx(0.3), "restricted") and "made up problem" in reason
    failed = SigmoidFit("restricted", None, ("the least-squares fit failed",))
    estimate, used, reason = choose_estimate(unstable_free, failed)
    assert np.isnan(estimate) and used is None and "no stable sigmoid fit" in reason
    early = SigmoidFit("restricted", np.array([-0.5, 0.05]))  # crosses chance at -0.4
    assert "no informative features" in choose_estimate(unstable_free, early)[2]
    late = SigmoidFit("restricted", np.array([0.95, 0.1]))  # crosses at 1.15
    estimate, _, reason = choose_estimate(unstable_free, late)
    assert np.isnan(estimate) and "beyond 100 %" in reason


@pytest.mark.parametrize("level", [0.5, 0.1])
def test_curves_without_a_rise_give_no_estimate_and_no_crash(rng, level):
    x = np.linspace(0, 1, 300)
    error = level + 0.02 * rng.standard_normal(x.size)
    free, restricted = fit_informative_sigmoid(x, error)
    estimate, used, reason = choose_estimate(free, restricted)
    assert np.isnan(estimate) and used is None and reason


def test_unstable_free_fit_is_rejected_for_its_documented_reasons():
    x = np.linspace(0, 0.5, 200)
    # Only the lower tail of a sigmoid centred far to the right: not identifiable.
    free, _ = fit_informative_sigmoid(x, sigmoid(x, 0.0, 0.5, 3.0, 0.4))
    assert not free.stable
    assert any("outside" in p or "covariance" in p or "failed" in p for p in free.problems)


# -- end to end -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def known():
    """48 samples of 6 groups, 120 features, the first 24 (20 %) informative, mu = 1."""
    return make_redundant(24, n_samples=48, n_features=120, n_groups=6, class_distance=1.0,
                          random_state=0)


def test_estimate_is_close_to_the_known_fraction(known):
    X, y, groups = known
    result = estimate_informative_fraction(X, y, groups, informative_every=1, **FAST)
    assert len(result.folds) == 6 and result.available
    assert result.estimate == pytest.approx(0.2, abs=0.05)
    assert result.n_informative == pytest.approx(result.estimate * 120)
    # The combined curve is the mean of the resampled fold curves; every fold curve
    # starts with the SVM on all features and ends at its last repetition.
    np.testing.assert_allclose(result.curve, result.fold_curves.mean(axis=0))
    for fold in result.folds:
        assert fold["steps"][0] == 0 and fold["steps"][-1] == fold["path"].n_repetitions
        assert fold["discarded"][0] == 0
        assert set(fold["Cs"]) <= set(FAST["svm_Cs"])
    assert result.curve[0] < 0.1 and np.nanmax(result.curve) > 0.4


@pytest.fixture(scope="module")
def small():
    return make_redundant(16, n_samples=32, n_features=80, n_groups=4, class_distance=1.0,
                          random_state=1)


def _same(a, b):
    np.testing.assert_array_equal(a.curve, b.curve)
    assert a.estimate == b.estimate or (np.isnan(a.estimate) and np.isnan(b.estimate))
    for fa, fb in zip(a.folds, b.folds):
        np.testing.assert_array_equal(fa["errors"], fb["errors"])
        np.testing.assert_array_equal(fa["Cs"], fb["Cs"])
        for sa, sb in zip(fa["path"].subsets, fb["path"].subsets):
            np.testing.assert_array_equal(sa, sb)


@pytest.fixture(scope="module")
def serial(small):
    X, y, groups = small
    return estimate_informative_fraction(X, y, groups, informative_every=2, n_jobs=1, **FAST)


def test_two_jobs_give_the_serial_result(small, serial):
    X, y, groups = small
    _same(serial, estimate_informative_fraction(X, y, groups, informative_every=2, n_jobs=2, **FAST))


def test_dask_cluster_gives_the_serial_result(small, serial):
    distributed = pytest.importorskip("distributed")
    X, y, groups = small
    # Two worker threads behind a scheduler on loopback TCP: every task and result is
    # serialised and sent over the network stack, as on a real cluster.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  protocol="tcp", host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert client.scheduler.address.startswith("tcp://127.0.0.1")
        with parallel_config(backend="dask"), distributed.get_task_stream(client) as tasks:
            result = estimate_informative_fraction(X, y, groups, informative_every=2, n_jobs=-1, **FAST)
        assert len(tasks.data) >= 4  # the folds (at least) ran on the cluster
    _same(serial, result)


def test_estimator_attributes_match_the_function(small, serial):
    X, y, groups = small
    rsfm = RepetitiveSFM(FAST["estimator"], informative_every=2, svm_Cs=FAST["svm_Cs"]).fit(X, y, groups)
    _same(serial, rsfm.informative_)
    assert rsfm.informative_fraction_ == serial.estimate or np.isnan(serial.estimate)


def test_progress_reports_both_stages(small):
    X, y, groups = small
    calls = []
    estimate_informative_fraction(X, y, groups, informative_every=4, progress=lambda *a: calls.append(a), **FAST)
    stages = [c[0] for c in calls]
    assert stages.count("rSFM") == 4 + 1  # start + one per fold
    assert calls[0] == ("rSFM", 0, 4) and calls[4] == ("rSFM", 4, 4)
    svm = [c for c in calls if c[0] == "SVM"]
    assert svm[0][1] == 0 and svm[-1][1] == svm[-1][2] == len(svm) - 1


def test_figure_draws_the_curve_and_the_estimate(serial):
    fig = informative_fraction_figure(serial)
    curve_ax = fig.axes[1]
    mean_line = next(line for line in curve_ax.lines if line.get_label().startswith("mean"))
    np.testing.assert_array_equal(mean_line.get_ydata(), serial.curve)
    if serial.available:
        assert f"{100 * serial.estimate:.1f} %" in curve_ax.get_title()
    else:
        assert curve_ax.get_title() == "no estimate"


def test_parameter_errors(small):
    X, y, groups = small
    with pytest.raises(DataValidationError, match="every"):
        estimate_informative_fraction(X, y, groups, informative_every=0)
    with pytest.raises(DataValidationError, match="Cs"):
        estimate_informative_fraction(X, y, groups, svm_Cs=[-1.0])
    with pytest.raises(DataValidationError, match="aggregate"):
        estimate_informative_fraction(X, y, groups, aggregate="mode")
    with pytest.raises(DataValidationError, match="groups"):
        estimate_informative_fraction(X, y, groups[:5])


def test_stratified_folds_shrink_to_small_classes(small):
    """Four samples per class: 5 outer folds, then 5 inner ones, are more than a class holds.

    scikit-learn's StratifiedKFold(5) raised a bare ValueError here; the folds now shrink
    to the smallest class (4 outer folds, 3 inner ones on 3 training samples per class).
    """
    X, y, _ = small
    keep = np.r_[np.flatnonzero(y == y[0])[:4], np.flatnonzero(y != y[0])[:4]]
    result = estimate_informative_fraction(X[keep], y[keep], informative_every=1, max_repetitions=2,
                                           random_state=0, **FAST)
    assert len(result.folds) == 4
    assert all(fold["steps"][0] == 0 for fold in result.folds)
    assert np.isfinite(result.curve[0])


# -- the experiment's helpers ---------------------------------------------------------------
def test_make_redundant_groups_hold_both_classes_equally():
    X, y, groups = make_redundant(10, n_samples=48, n_features=30, n_groups=6, random_state=0)
    assert X.shape == (48, 30) and np.unique(groups).size == 6
    for g in range(6):
        assert np.sum((groups == g) & (y > 0)) == np.sum((groups == g) & (y < 0)) == 4


def test_ranking_overlap_by_hand():
    from sfmlearn.experiments.informative_fraction import ranking_overlap

    # 10 features, the first 2 informative; ranks: feature 0 -> 1, feature 5 -> 2, feature 1 -> 3.
    ranking = np.array([1, 3, 9, 9, 9, 2, 9, 9, 9, 9])
    table = ranking_overlap(ranking, 2, quantiles=(10.0, 20.0, 30.0)).set_index("q")
    assert table.loc[10.0, "recall"] == 50.0 and table.loc[10.0, "precision"] == 100.0
    assert table.loc[20.0, "recall"] == 50.0 and table.loc[20.0, "precision"] == 50.0
    assert table.loc[30.0, "recall"] == 100.0 and table.loc[30.0, "precision"] == pytest.approx(200 / 3)
    assert (table["recall_chance"] == table.index).all() and (table["precision_chance"] == 20.0).all()


def test_former_argument_names_warn_and_still_work(small, serial):
    X, y, groups = small
    with pytest.warns(FutureWarning) as caught:
        old = estimate_informative_fraction(X, y, groups, every=2, Cs=FAST["svm_Cs"], n_jobs=1,
                                            estimator=FAST["estimator"])
    messages = sorted(str(w.message) for w in caught)
    assert len(messages) == 2
    assert "'Cs' is renamed 'svm_Cs'" in messages[0] and "'every' is renamed 'informative_every'" in messages[1]
    _same(serial, old)


def test_the_figure_draws_folds_whose_soft_run_found_nothing():
    # on noise the soft rSFM's chance test stops every fold at its first repetition
    X, y = np.random.default_rng(0).standard_normal((40, 60)), np.repeat([0, 1], 20)
    result = estimate_informative_fraction(X, y, estimator=SupportFeatureMachine(C=1.0), informative_every=1,
                                           cv=3, random_state=0)
    assert all(fold["path"].sizes.size == 0 for fold in result.folds)
    sizes_ax = informative_fraction_figure(result).axes[0]
    assert sizes_ax.get_lines() == []  # nothing found, nothing drawn: no crash


def test_constant_features_are_named_by_the_rsfm_fits_not_again_by_each_folds_kernel(small):
    """The folds' scaling for the SVM kernels is internal: only the rSFM fits warn."""
    import warnings

    from sfmlearn.exceptions import ConstantFeatureWarning

    X, y, groups = small
    X = np.c_[X, np.zeros(y.size)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        estimate_informative_fraction(X, y, groups, informative_every=2, max_repetitions=2, **FAST)
    constant = [str(w.message) for w in caught if issubclass(w.category, ConstantFeatureWarning)]
    assert constant and not any("transformed to 0" in text for text in constant)


def test_pure_noise_gives_no_estimate_because_the_svm_on_all_features_is_at_chance():
    """On random labels the tangent of the fitted sigmoid still met chance somewhere in
    [0, 1]: seed 1 gave '94.6 % of 300 features informative'."""
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(60, 300)), np.tile(["u", "v"], 30)
    result = estimate_informative_fraction(X, y, random_state=0)
    assert np.isnan(result.estimate) and result.fit_used is None
    assert result.reason.startswith("the SVM on all features is not below chance (balanced error ")
    assert "held-out samples, binomial p = " in result.reason and "no informative features detected" in result.reason


def test_folds_with_too_few_evaluations_give_no_estimate_and_say_how_to_get_one():
    """With evaluations every 10th repetition and runs of 4-5 repetitions each fold has
    two points, and the sigmoid was fitted to where the folds stopped (74 % for 3 of 50)."""
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = rng.normal(size=(40, 50))
    X[:, :3] += 1.5 * y[:, None]
    result = estimate_informative_fraction(X, y, informative_every=10, random_state=0)
    assert np.isnan(result.estimate)
    assert "times only (its rSFM stopped after" in result.reason and "a smaller informative_every" in result.reason
    assert np.isfinite(estimate_informative_fraction(X, y, informative_every=1, random_state=0).estimate)
