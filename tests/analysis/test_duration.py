"""The run-time guard: probes on two subsamples, the growth exponent, the refusals."""

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator

from sfmlearn import StabilitySelection, SupportFeatureMachine, SupportFeatureMachineCV
from sfmlearn.analysis import duration
from sfmlearn.analysis import TrainingData, run_repeat
from sfmlearn.analysis import select as analysis_select
from sfmlearn.analysis.duration import (DurationEstimate, DurationLimitError, check_duration, estimate_duration,
                                        repetition_fits, work_unit)
from sfmlearn.cli import main
from sfmlearn.diagnostics.budget_paths import SFMPath
from sfmlearn.exceptions import NotSeparableError
from sfmlearn.selection import RepetitiveSFM


class FakeClock:
    """``time.perf_counter`` for the module under test: only the fake fits move it."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class CostlyFit(BaseEstimator):
    """A selector whose fit costs ``1e-3 * n ** power`` seconds of the fake clock."""

    clock = None  # the test's FakeClock (a class attribute: clone copies parameters)

    def __init__(self, power=2.0):
        self.power = power

    def fit(self, X, y):
        CostlyFit.clock.now += 1e-3 * len(y) ** self.power
        self.support_ = np.arange(X.shape[1]) < 4
        return self


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(duration.time, "perf_counter", fake)
    monkeypatch.setattr(duration, "PROBE_SIZES", (20, 40))
    monkeypatch.setattr(CostlyFit, "clock", fake)
    return fake


def two_classes(n, d=10, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, "a", "b")
    return rng.standard_normal((n, d)), y


@pytest.mark.parametrize("power, exponent", [(2.0, 2.0), (0.0, 1.0), (5.0, 3.0)])
def test_the_exponent_is_measured_between_the_probes_and_clamped(clock, power, exponent):
    X, y = two_classes(200)
    estimate = estimate_duration(CostlyFit(power), X, y, fits=3)
    assert estimate.sizes == (20, 40)
    assert estimate.exponent == pytest.approx(exponent)
    assert estimate.seconds == pytest.approx((1e-3 * 20 ** power, 1e-3 * 40 ** power))
    assert estimate.units == 3 and estimate.n_samples == 200 and estimate.selected == 4
    assert estimate.total_seconds == pytest.approx(1e-3 * 40 ** power * 5 ** exponent * 3)


def test_fits_that_see_no_more_samples_than_the_larger_probe_are_not_timed(clock):
    X, y = two_classes(40)
    estimate = estimate_duration(CostlyFit(), X, y)
    assert estimate is None and clock.now == 0.0


class WarmingFit(CostlyFit):
    """A CostlyFit whose first fit in the process also pays a second of start-up."""

    started = False

    def fit(self, X, y):
        if not WarmingFit.started:
            WarmingFit.started = True
            CostlyFit.clock.now += 1.0
        return super().fit(X, y)


def test_many_units_on_small_data_are_timed_warm_at_their_own_size(clock):
    X, y = two_classes(40)
    assert estimate_duration(CostlyFit(), X, y, fits=duration.TIMED_UNITS - 1) is None and clock.now == 0.0
    WarmingFit.started = False
    estimate = estimate_duration(WarmingFit(2.0), X, y, fits=duration.TIMED_UNITS)
    assert clock.now == pytest.approx(1.0 + 2 * 1e-3 * 40 ** 2)  # the unit twice, at the run's 40 samples
    assert estimate.sizes == (40,) and estimate.seconds == pytest.approx((1.6,))  # the second, warm time
    assert not estimate.lower_bound and estimate.total_seconds == pytest.approx(1.6 * duration.TIMED_UNITS)
    assert estimate.describe() == "about 3 min: one fit of WarmingFit took 1.6 s on 40 samples, as many as each " \
                                  "of them sees, and the run fits 100 of them"


def test_fewer_units_are_timed_under_a_limit_they_could_exceed(clock):
    """94 path fits of 4.6 s on wide data ran to the end under --max-hours 0.00001: a
    limit the user lowers is kept even where the hour's rule would time nothing."""
    X, y = two_classes(40)
    n = duration.TIMED_UNITS - 1
    assert estimate_duration(CostlyFit(), X, y, fits=n, max_seconds=3600.0) is None and clock.now == 0.0
    estimate = estimate_duration(CostlyFit(), X, y, fits=n, max_seconds=n * duration.UNTIMED_UNIT_SECONDS)
    assert estimate is not None and estimate.total_seconds == pytest.approx(n * 1e-3 * 40 ** 2)
    with pytest.raises(duration.DurationLimitError):
        check_duration(estimate_duration(CostlyFit(), X, y, fits=n, max_seconds=1.0), 1.0)


def test_a_stability_selection_on_small_data_is_timed_on_its_halves(clock, monkeypatch):
    seen = []
    monkeypatch.setattr(duration, "sfm_path", lambda X, y, Cs, estimator, probability: seen.append(len(y)))
    X, y = two_classes(40)
    estimate = estimate_duration(StabilitySelection(n_pairs=50), X, y)  # 100 paths on halves of 20
    assert seen == [20, 20] and estimate.sizes == (20,) and estimate.units == 100


def test_a_probe_that_fails_leaves_the_error_to_the_analysis(clock):
    X, y = two_classes(200, d=2)  # random points in 2 dimensions: the hard SFM has no solution
    with pytest.raises(NotSeparableError):
        SupportFeatureMachine().fit(X[:40], y[:40])
    assert estimate_duration(SupportFeatureMachine(), X, y) is None


def test_check_duration_refuses_over_the_limit_and_names_estimate_limit_and_advice():
    estimate = DurationEstimate("one fit", (200, 400), (1.0, 4.0), 2.0, 4000, 10)  # 400 s per fit, 4000 s
    assert estimate.total_seconds == pytest.approx(4000.0)
    check_duration(estimate, 4000.0, "fewer samples")
    check_duration(estimate, None, "fewer samples")
    check_duration(None, 1.0, "fewer samples")
    with pytest.raises(DurationLimitError) as refused:
        check_duration(estimate, 3600.0, "fewer samples")
    message = str(refused.value)
    assert "about 1.1 h" in message and "the limit is 1.0 h" in message and "fewer samples" in message
    assert "n^2.0" in message and "10 of them" in message
    assert refused.value.estimate is estimate and refused.value.max_seconds == 3600.0


def test_work_units_of_each_kind_of_selector():
    y = np.array([0, 1] * 30)
    name, _, units, share = work_unit(SupportFeatureMachineCV(cv=4, n_repeats=3), y)
    assert (units, share) == (13, 1.0) and "path of 12 values of C" in name
    groups = np.repeat(np.arange(12), 5)  # leave one group out, once: 12 folds
    assert work_unit(SupportFeatureMachineCV(), y, groups)[2] == 13
    assert work_unit(SupportFeatureMachineCV(Cs=7), y)[0] == "one path of 7 values of C"
    assert work_unit(StabilitySelection(n_pairs=10), y)[2:] == (20, 0.5)
    name, _, units, _ = work_unit(SupportFeatureMachine(C=1.0), y)
    assert (name, units) == ("one fit of SupportFeatureMachine", 1)
    path = SFMPath(n_Cs=3)
    name, fit, units, _ = work_unit(path, y)
    assert fit == path.fit_path and units == 1


def test_a_repetitive_run_counts_its_repetitions_and_chance_folds():
    assert repetition_fits(RepetitiveSFM(max_repetitions=3), 100, 5, soft=True) == 3 * 6
    assert repetition_fits(RepetitiveSFM(max_repetitions=3), 100, 5, soft=False) == 3
    assert repetition_fits(RepetitiveSFM(), 101, 5, soft=False) == 21  # the features over one subset's size
    assert repetition_fits(RepetitiveSFM(), 10, 0, soft=False) == 10


@pytest.fixture(scope="module")
def table_path(tmp_path_factory):
    rng = np.random.default_rng(0)
    y = np.where(np.arange(120) % 2 == 0, "tumour", "normal")
    X = rng.standard_normal((120, 15))
    X[:, 0] += np.where(y == "tumour", 1.5, -1.5)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(15)])
    frame.insert(0, "state", y)
    path = tmp_path_factory.mktemp("duration") / "data.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("argv, advice, n_unit", [
    (["select", "--C", "auto"], "a fixed --C, fewer --cv folds or --cv 0, or a larger", 120),
    (["select", "--C", "1", "--cv", "0", "--chance", "3"], "(a subset of the rows, or --classes), fewer --chance", 120),
    (["select", "--stability", "0.6"], "--classes), fewer --cv folds or --cv 0, or", 60),  # halves
    (["path", "--Cs", "3"], "fewer --Cs", 120),
    (["compare", "--budgets", "1", "--inner-cv", "2"], "fewer --cv folds or --inner-cv 0, or", 120),
    (["compare", "--budgets", "1"], "--classes), fewer --cv folds, or a larger", 120),  # --inner-cv 0 already
    (["repeat", "--C", "1", "--max-repetitions", "2"], "--no-estimate", 120),
])
def test_commands_refuse_a_run_over_max_hours_in_one_line_before_the_work(table_path, monkeypatch, capsys,
                                                                          argv, advice, n_unit):
    monkeypatch.setattr(duration, "PROBE_SIZES", (20, 40))
    code = main([argv[0], str(table_path), "--target", "state", *argv[1:], "--max-hours", "1e-9", "--quiet"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sfmlearn: error: this run would take ")
    assert " on 20" in lines[0] and f"on up to {n_unit} samples" in lines[0]
    assert "runs estimated over --max-hours 1e-09 are refused" in lines[0] and advice in lines[0]


def test_label_permutations_on_small_data_are_refused_over_max_hours(table_path, capsys):
    code = main(["select", str(table_path), "--target", "state", "--C", "1", "--cv", "0", "--chance", "200",
                 "--max-hours", "1e-9", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "on 120 samples, as many as each of them sees, and the run fits 201 of them" in err
    assert "are refused: use fewer --chance permutations, or a larger --max-hours" in err  # not fewer samples


def test_max_hours_inf_times_nothing(table_path, monkeypatch, capsys):
    def never(*args, **kwargs):
        raise AssertionError("probed without a limit")

    monkeypatch.setattr(duration, "PROBE_SIZES", (20, 40))
    monkeypatch.setattr(analysis_select, "estimate_duration", never)
    code = main(["select", str(table_path), "--target", "state", "--C", "1", "--cv", "0", "--max-hours", "inf",
                 "--quiet"])
    assert code == 0 and "features selected" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["0", "-1", "nan", "an hour"])
def test_max_hours_must_be_a_positive_number(table_path, capsys, value):
    code = main(["select", str(table_path), "--target", "state", "--max-hours", value])
    err = capsys.readouterr().err
    assert code == 2 and "--max-hours" in err
    assert "positive number of hours" in err or "expected a number of hours" in err


def test_a_rare_class_still_reaches_every_probe(clock):
    X, _ = two_classes(3000)
    y = np.array(["a"] * 2996 + ["b"] * 4)  # proportionally none of "b" in 20 or 40 samples
    for size in (20, 40):
        rows = duration.probe_rows(y, size)
        assert np.count_nonzero(y[rows] == "b") == 2 and rows.size == size
    estimate = estimate_duration(CostlyFit(), X, y)
    assert estimate.sizes == (20, 40) and estimate.n_samples == 3000


@pytest.mark.parametrize("counts, size, expected", [
    ((25, 25), 25, (13, 12)),  # the largest remainder, not round(12.5) twice
    ((18, 2), 10, (8, 2)),  # the rare class's 2 come out of the size
    ((500, 300), 400, (250, 150)),
    ((3, 1), 10, (3, 1)),  # all, when fewer
])
def test_probes_have_the_size_asked_for(counts, size, expected):
    y = np.repeat(np.arange(len(counts)), counts)
    assert tuple(np.bincount(y[duration.probe_rows(y, size)])) == expected


def test_a_first_probe_already_over_the_limit_ends_the_timing(clock):
    X, y = two_classes(200)
    estimate = estimate_duration(CostlyFit(2.0), X, y, fits=3, max_seconds=1.0)  # 0.4 s x 10 x 3 > 1 s
    assert estimate.lower_bound and estimate.sizes == (20,) and estimate.exponent == 1.0
    assert estimate.total_seconds == pytest.approx(0.4 * 10 * 3)
    assert estimate.describe().startswith("at least 12 s: ") and "at least linearly" in estimate.describe()
    assert not estimate_duration(CostlyFit(2.0), X, y, fits=3, max_seconds=100.0).lower_bound


def test_durations_read_as_seconds_minutes_or_hours():
    assert [duration.hours(s) for s in (12.4, 600, 7200)] == ["12 s", "10 min", "2.0 h"]


@pytest.fixture(scope="module")
def grouped_path(tmp_path_factory, table_path):
    frame = pd.read_csv(table_path)
    frame.insert(1, "batch", [f"b{i % 12}" for i in range(len(frame))])
    path = tmp_path_factory.mktemp("grouped") / "grouped.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("argv, units", [
    (["path", "--Cs", "3"], "fits 13 of them"),  # leave one of 12 groups out, and all data
    (["select", "--C", "auto", "--cv", "0"], "fits 13 of them"),
    (["repeat", "--C", "1", "--max-repetitions", "2"], "fits 156 of them"),  # 2 x 6 fits x (1 + 12 folds)
])
def test_grouped_data_count_the_folds_that_leave_one_group_out(grouped_path, monkeypatch, capsys, argv, units):
    monkeypatch.setattr(duration, "PROBE_SIZES", (20, 40))
    code = main([argv[0], str(grouped_path), "--target", "state", "--groups", "batch", *argv[1:],
                 "--max-hours", "1e-9", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and units in err and len(err.strip().splitlines()) == 1


def test_a_stability_selection_is_timed_on_the_path_it_fits(monkeypatch):
    seen = []
    monkeypatch.setattr(duration, "sfm_path", lambda X, y, Cs, estimator, probability: seen.append(estimator))
    X, y = two_classes(40)
    work_unit(StabilitySelection(), y)[1](X, y)  # its default: the class-balanced SFM
    work_unit(StabilitySelection(SupportFeatureMachine(C=2.0)), y)[1](X, y)
    assert seen[0].class_weight == "balanced" and seen[1].C == 2.0


@pytest.mark.parametrize("argv, fits, advice", [
    (["--permutations", "200"], 4 * (1 + 201) + 1, "use fewer --permutations, a coarser --level, or"),
    (["--repetitive", "--max-repetitions", "30"], 4 + 1 + 5 * 30, "use fewer --max-repetitions, a coarser --level, or"),
    (["--repetitive"], None, "use --max-repetitions, a coarser --level, or"),
    # soft: the chance test decides, so one repetition (and its 5 chance folds) per run
    (["--repetitive", "--C", "1"], 4 + 1 + 5 * 6, "use a coarser --level, or"),
])
def test_fmri_refuses_a_long_run_before_it_writes_anything(tmp_path, capsys, argv, fits, advice):
    out = tmp_path / "out"
    code = main(["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--participants", "4", "--runs", "1",
                 "--out", str(out), *argv, "--max-hours", "1e-9", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and not out.exists()
    assert advice in err and (fits is None or f"and the run fits {fits} of them" in err)


def test_fmri_times_one_repeat_of_many_random_subsets_and_adds_it_to_the_sfm_fits(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--participants", "4", "--runs", "1",
                 "--out", str(out), "--random-subsets", "10", "--permutations", "200", "--max-hours", "1e-9",
                 "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and not out.exists()
    assert "and the run fits 809 of them; and one repeat of the random-subset SVMs took " in err
    assert "and the run fits 10 of them" in err and "use fewer --permutations, fewer --random-subsets, a" in err


def test_an_estimate_with_another_kind_of_unit_adds_both():
    sfm = DurationEstimate("one fit", (50,), (0.5,), 1.0, 50, 100)
    svm = DurationEstimate("one repeat", (50,), (2.0,), 1.0, 50, 30)
    both = DurationEstimate("one fit", (50,), (0.5,), 1.0, 50, 100, others=(svm,))
    assert both.total_seconds == pytest.approx(sfm.total_seconds + svm.total_seconds) == 110.0
    described = both.describe()
    assert described.startswith("about 2 min: one fit took 0.5 s") and "; and one repeat took 2 s" in described
    bounded = DurationEstimate("one fit", (200,), (0.5,), 1.0, 800, 10, others=(svm,))
    assert bounded.describe().startswith("at least ")


def test_fmri_times_nothing_without_a_limit_and_counts_its_sfm_fits(monkeypatch):
    from sfmlearn.analysis import fmri, run_fmri
    from sfmlearn.analysis.fmri_data import simulate_fmri_data

    timed = []
    monkeypatch.setattr(fmri, "estimate_duration", lambda *args, **kwargs: timed.append(args[3]))
    data = simulate_fmri_data("buttonpress", participants=4, runs=1, grid_level=2)
    run_fmri(data, n_permutations=2)
    assert timed == []
    run_fmri(data, n_permutations=2, max_seconds=3600)
    assert timed[0](None) == 4 * (1 + 3) + 1


def test_small_data_in_any_accepted_form_are_timed_and_bad_data_left_to_the_analysis(clock):
    import scipy.sparse as sp

    X, y = two_classes(40)
    for form in (pd.DataFrame(X), X.tolist(), sp.coo_array(X)):
        assert estimate_duration(CostlyFit(), form, y, fits=500).sizes == (40,)
    assert estimate_duration(CostlyFit(), X, y[:-1], fits=500) is None  # lengths differ
    with_nan = X.copy()
    with_nan[0, 0] = np.nan
    assert estimate_duration(CostlyFit(), with_nan, y, fits=500) is None


def test_a_class_of_one_sample_does_not_switch_off_the_small_data_timing(clock):
    X, _ = two_classes(40)
    y = np.array(["a"] * 39 + ["b"])
    assert estimate_duration(CostlyFit(), X, y, fits=500).sizes == (40,)


def test_durations_under_ten_seconds_keep_two_digits():
    assert [duration.hours(s) for s in (0.0042, 0.4, 4.16)] == ["0.0042 s", "0.4 s", "4.2 s"]


def test_the_python_refusal_advises_only_what_the_options_can_still_change(table_path):
    from sfmlearn.analysis import TrainingData, run_select

    frame = pd.read_csv(table_path)
    data = TrainingData("table", frame.drop(columns="state").to_numpy(), frame["state"].to_numpy(),
                        np.array(frame.columns[1:]))
    with pytest.raises(DurationLimitError) as refused:
        run_select(data, C=1.0, cv=0, n_permutations=200, max_seconds=1e-9)
    assert str(refused.value).endswith("(fewer n_permutations, or a larger max_seconds).")


@pytest.mark.parametrize("argv, advice", [
    (["repeat", "--C", "1", "--max-repetitions", "200", "--no-estimate", "--groups", "batch"],
     "use fewer samples (a subset of the rows, or --classes), fewer --max-repetitions, or a larger"),
    (["path", "--Cs", "3", "--groups", "batch"], "use fewer samples (a subset of the rows, or --classes), fewer "
     "--Cs, or a larger"),
])
def test_the_command_line_refusal_advises_no_option_already_given(grouped_path, monkeypatch, capsys, argv, advice):
    monkeypatch.setattr(duration, "PROBE_SIZES", (20, 40))
    code = main([argv[0], str(grouped_path), "--target", "state", *argv[1:], "--max-hours", "1e-9", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and advice in err


@pytest.mark.parametrize("advice, flags", [
    ("fewer methods, or a larger max_seconds", "a larger --max-hours"),
    ("fewer samples, fewer folds (cv) or inner_cv=None, fewer methods, or a larger max_seconds",
     "fewer samples (a subset of the rows, or --classes), fewer --cv folds or --inner-cv 0, or a larger --max-hours"),
    ("fewer permutations, fewer max_repetitions, fewer random_subsets, fewer voxels (a coarser level), or a larger "
     "max_seconds", "fewer --permutations, fewer --max-repetitions, fewer --random-subsets, a coarser --level, or a "
     "larger --max-hours"),
])
def test_the_command_line_words_the_analyses_advice_in_its_flags(advice, flags):
    from sfmlearn.cli._common import DURATION_WORDS, in_flags

    assert in_flags(advice, DURATION_WORDS) == flags


@pytest.mark.parametrize("C, max_repetitions, repetitions", [
    (1.0, None, 1),     # the chance test decides: only the first repetition is certain
    (1.0, 4, 4),        # a cap is counted as given
    (None, None, 15),   # hard: the 15 features in subsets of one
])
def test_a_repetitive_run_is_counted_as_far_as_it_is_known(table_path, monkeypatch, C, max_repetitions,
                                                          repetitions):
    counted = {}

    def fake_estimate(estimator, X, y, fits, **options):
        counted["fits"] = fits(None)
        raise StopIteration  # nothing is fitted

    monkeypatch.setattr("sfmlearn.analysis.repeat.estimate_duration", fake_estimate)
    frame = pd.read_csv(table_path)
    data = TrainingData("table", frame.drop(columns="state").to_numpy(), frame["state"].to_numpy(),
                        frame.columns[1:].to_numpy())
    with pytest.raises(StopIteration):
        run_repeat(data, C=C, max_repetitions=max_repetitions, max_seconds=3600)
    soft = C is not None
    assert counted["fits"] == 6 * repetitions * (6 if soft else 1)  # the fit and 5 folds' runs; 5 chance folds each


@pytest.mark.parametrize("argv, done, ways", [
    (["repeat", "--C", "1"], "0 repetitions of the repetitive SFM", "--max-repetitions, --no-estimate"),
    (["select", "--C", "auto"], "0 repetitions of the repetitive SFM (the unions of the choice of C)",
     "a fixed --C, fewer --cv folds or --cv 0"),
    (["select", "--C", "1"], "1 of the folds of the cross-validation", "fewer --cv folds or --cv 0"),
    (["select", "--C", "1", "--cv", "0", "--chance", "5"], "1 of the label permutations of the chance report",
     "fewer --chance permutations"),
    (["path"], "1 of the inner folds of the choice of C", "fewer --Cs, fewer --cv folds"),
    (["compare"], "0 repetitions of the repetitive SFM", "fewer --cv folds, --inner-cv 0"),
])
def test_commands_stop_a_run_that_passes_max_hours_in_one_line(table_path, monkeypatch, capsys, argv, done, ways):
    clock = itertools.count(0.0, 3600.0)  # every reading of the clock is an hour later
    monkeypatch.setattr("sfmlearn.utils.time_limit.time.time", lambda: next(clock))
    code = main([argv[0], str(table_path), "--target", "state", *argv[1:], "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1].startswith(f"sfmlearn: error: this run passed --max-hours 1 after {done}")
    assert err[-1].endswith(f": use {ways}, or a larger --max-hours")


def test_fmri_stops_a_run_that_passes_max_hours_in_one_line(tmp_path, monkeypatch, capsys):
    clock = itertools.count(0.0, 3600.0)  # every reading of the clock is an hour later
    monkeypatch.setattr("sfmlearn.utils.time_limit.time.time", lambda: next(clock))
    out = tmp_path / "out"
    code = main(["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--participants", "4", "--runs", "1",
                 "--out", str(out), "--repetitive", "--C", "1", "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and not out.exists()
    assert err[-1].startswith("sfmlearn: error: this run passed --max-hours 1 after 1 of the folds of the "
                              "cross-validation")  # its first stage, the decoding
    assert err[-1].endswith(": use --max-repetitions, fewer --permutations or --random-subsets, or a larger "
                            "--max-hours")
