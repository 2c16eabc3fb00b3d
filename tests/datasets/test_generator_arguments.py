"""Every synthetic generator checks its arguments up front, naming the argument and its range."""

import pytest

from sfmlearn.datasets import (
    make_basic,
    make_chessboard,
    make_nonseparable,
    make_psvm_nonlinear,
    make_psvm_redundancy,
    make_quadratic_circle,
    make_random_labels,
    make_separable_subspace,
    make_toy_fmri,
    make_weston,
    make_weston_modes,
)

#: (generator, keyword arguments of a valid call besides n_samples, least n_samples)
SAMPLED = [
    (make_basic, {}, 2), (make_weston, {}, 2), (make_nonseparable, {}, 2), (make_random_labels, {}, 2),
    (make_separable_subspace, {}, 2), (make_chessboard, {}, 2), (make_quadratic_circle, {}, 2),
    (make_weston_modes, {}, 2), (make_psvm_nonlinear, {"task": "A"}, 1),
    (make_psvm_redundancy, {"toy": "table1_top"}, 1),
]


@pytest.mark.parametrize("generate, kwargs, least", SAMPLED, ids=[generate.__name__ for generate, _, _ in SAMPLED])
@pytest.mark.parametrize("n_samples", [-5, 0, 2.5, True])
def test_every_generator_names_n_samples_and_its_range(generate, kwargs, least, n_samples):
    """Negative, zero, fractional and boolean sample counts are refused before any drawing."""
    with pytest.raises(ValueError, match=rf"'n_samples' parameter of {generate.__name__} must be an int "
                                         rf"in the range \[{least}, inf\)"):
        generate(n_samples=n_samples, **kwargs)


def test_make_basic_blames_n_samples_not_positive_fraction():
    with pytest.raises(ValueError, match="'n_samples' parameter of make_basic") as error:
        make_basic(-5)
    assert "positive_fraction" not in str(error.value)


@pytest.mark.parametrize("call, argument, allowed", [
    (lambda: make_weston(10, -1), "n_noise", r"\[0, inf\)"),
    (lambda: make_weston(10, 5, noise_std=-1.0), "noise_std", r"\[0.0, inf\)"),
    (lambda: make_quadratic_circle(10, half_width=0), "half_width", r"\(0.0, inf\)"),
    (lambda: make_quadratic_circle(10, radius=-1), "radius", r"\(0.0, inf\)"),
    (lambda: make_chessboard(10, cell_size=0), "cell_size", r"\(0.0, inf\)"),
    (lambda: make_basic(20, positive_fraction=1.5), "positive_fraction", r"\(0.0, 1.0\)"),
    (lambda: make_toy_fmri(0), "n_groups", r"\[1, inf\)"),
    (lambda: make_toy_fmri(2, 2, 3, n_informative=-1), "n_informative", r"\[0, inf\)"),
    (lambda: make_basic(20, True), "n_features", r"\[1, inf\)"),
])
def test_out_of_range_arguments_name_the_argument_and_the_range(call, argument, allowed):
    with pytest.raises(ValueError, match=rf"'{argument}' parameter of make_\w+ must be a\w* \w+ in the range {allowed}"):
        call()


@pytest.mark.parametrize("call, flag", [
    (lambda: make_basic(20, separable="no"), "separable"),
    (lambda: make_weston(10, 5, separable=1), "separable"),
    (lambda: make_separable_subspace(20, 10, 2, return_coef="yes"), "return_coef"),
])
def test_flags_accept_only_true_and_false(call, flag):
    with pytest.raises(ValueError, match=f"'{flag}' parameter of make_.* must be an instance of 'bool'"):
        call()


def test_a_circle_around_the_whole_box_is_refused():
    """Every point inside the circle would give a single class."""
    with pytest.raises(ValueError, match=r"radius=3 leaves no point outside the circle.* below 2.12"):
        make_quadratic_circle(10, radius=3, half_width=1.5)


@pytest.mark.parametrize("labels", [("a", "a"), ("a",), ("a", "b", "c")])
def test_toy_fmri_needs_two_different_labels(labels):
    with pytest.raises(ValueError, match="labels must be two different labels, one per condition"):
        make_toy_fmri(2, 2, 10, labels=labels)


def test_toy_fmri_refuses_more_informative_voxels_than_voxels():
    with pytest.raises(ValueError, match="n_informative=5 exceeds n_voxels=3"):
        make_toy_fmri(2, 2, 3, n_informative=5)
