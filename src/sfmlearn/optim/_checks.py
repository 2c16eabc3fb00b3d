"""The input check of the SVM solvers, which users also call with their own arrays.

The estimators validate their data at the edge (:mod:`sfmlearn._validation`) and pass
labels -1/+1; :func:`check_svm_data` gives a direct call of
:func:`~.hard_margin.hard_margin_svm` or :func:`~.svm.linear_svm` the same clear errors
instead of wrong answers (0/1 labels) or raw NumPy and LAPACK errors (inf in X).
"""

import numpy as np
import scipy.sparse as sp

from .._validation import check_data
from ..lp.inputs import check_signed_labels, require_both_classes


def check_svm_data(X, y, owner):
    """``(X, y)`` for the SVM solver ``owner``: X as dense float64 samples (sparse X
    densified; 2-D, numeric, finite, at least one row and column), y as labels -1 and
    +1 of both classes, one per sample; otherwise a DataValidationError naming the fix."""
    if sp.issparse(X):
        X = X.toarray()
    X = np.asarray(check_data(X), dtype=np.float64)
    y = check_signed_labels(y, X.shape[0])
    require_both_classes(y, owner)
    return X, y
