"""The benchmark problems of the SFM's speed measurements, built reproducibly.

(38, 7129)   the Golub leukemia training set (real data, shipped)
(88, 6362)   fMRI-like: 88 samples, 200 informative of 6362 features (make_basic)
(100, 10006) Weston et al.'s benchmark with 10 000 noise features (make_weston)
"""

import numpy as np

from sfmlearn.datasets import load_leukemia, make_basic, make_weston

SHAPES = {
    "leukemia 38x7129": lambda: load_leukemia(return_X_y=True)[:2],
    "fmri-like 88x6362": lambda: make_basic(88, 6362, 200, class_distance=0.3, positive_fraction=0.5,
                                            separable=False, random_state=0),
    "weston 100x10006": lambda: make_weston(100, 10000, random_state=0),
}


def load(name):
    X, y = SHAPES[name]()
    return np.asarray(X, dtype=np.float64), np.asarray(y)


#: The four shapes of the papers' experiments on which row generation must not be slower
#: than the full LP.
PAPER_SHAPES = {
    "leukemia 38x7129": SHAPES["leukemia 38x7129"],
    "fmri-like 88x6362": SHAPES["fmri-like 88x6362"],
    "weston 100x10006": SHAPES["weston 100x10006"],
    "fmri-like 88x50989": lambda: make_basic(88, 50989, 200, class_distance=0.3,
                                             positive_fraction=0.5, separable=False,
                                             random_state=0),
}


def paper_shape(name):
    X, y = PAPER_SHAPES[name]()
    return np.asarray(X, dtype=np.float64), np.asarray(y)
