"""Tiny simulated button-press data shared by the MVPA tests (16 mm grid, 457 voxels)."""

import pytest

from sfmlearn.imaging.simulate import mni152_mask, simulate_fmri
from sfmlearn.imaging.volumes import downsample_mask


@pytest.fixture(scope="session")
def coarse_mask():
    return downsample_mask(mni152_mask(), 2)


@pytest.fixture(scope="session")
def buttonpress(coarse_mask):
    return simulate_fmri("buttonpress", mask=coarse_mask, n_participants=4, n_runs=3,
                         effect_size=4.0, random_state=0)
