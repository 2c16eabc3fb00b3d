"""The thesis 5.2 vignetting reproduction (experiment table and figure)."""

import numpy as np

from sfmlearn.experiments import vignetting
from sfmlearn.experiments.figures.imaging import illumination_correction_figure


def test_border_error_measures_the_change_next_to_each_side():
    corrected = np.full((5, 300), 10.0)
    corrected[2, :128] = np.linspace(7.0, 10.0, 128)  # the middle row dips by 3 on the left
    corrected[2, -1] = 10.5  # and rises by 0.5 at the right border
    assert vignetting.border_error(corrected) == (3.0, 0.5)


def test_run_reports_ours_next_to_published():
    table = vignetting.run(quick=True)
    assert list(table.boundary) == ["replicate", "linear", "quadratic"]
    assert table.published.tolist() == [4.35, 0.36, 0.08]
    assert (table.error == table[["error_left", "error_right"]].max(axis=1)).all()
    assert table.error.is_monotonic_decreasing  # the published order


def test_figure_shows_the_middle_row_profiles():
    image = vignetting.vignetting_image(width=160, height=128)
    corrected = vignetting.corrected_images(image, ["replicate", "quadratic"], levels=3)
    fig = illumination_correction_figure(image, corrected, border=16)
    assert len(fig.axes) == 1 + 2 * 2
    profile = fig.axes[2].lines[0].get_ydata()  # replicate, left border
    np.testing.assert_array_equal(profile, corrected["replicate"][64, :16])
