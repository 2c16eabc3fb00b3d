"""Shared fixtures: small deterministic problems with known answers."""

import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(0)
