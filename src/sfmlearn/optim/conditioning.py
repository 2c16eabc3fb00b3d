r"""Removing an offset from data before a hyperplane problem, which its bias absorbs.

A hyperplane problem with a free bias b has the same weights w on X and on X - c for
any centre c:

.. math::

    y_i (w \cdot x_i + b) = y_i (w \cdot (x_i - c) + b_c) \quad \text{with} \quad
    b = b_c - w \cdot c.

Data far from the origin compared with their spread (Unix timestamps, values with
1e9 added) lose in every product x_i . w the digits that tell the samples apart: its
rounding is of order eps max|X| ||w||, while the margins are set by the spread. The
separability LP then changed its verdict, the hard-margin SVM failed its certificate
and the soft-margin interior point stopped without converging (at offsets of 1e8 to
1e9 on data of unit spread, ``tests/optim/test_offsets.py``). :func:`remove_offset`
centres such data (the solvers shift the bias back with :func:`bias_with_offset`) and
leaves all other data alone, so their results stay the same to the last bit.

Examples
--------
>>> import numpy as np
>>> from sfmlearn.optim.conditioning import bias_with_offset, remove_offset
>>> X = np.array([[1.0], [2.0], [4.0], [5.0]])
>>> remove_offset(X)[1] is None   # no offset to speak of
True
>>> centred, centre = remove_offset(X + 1e9)
>>> centred.ravel(), float(centre[0])
(array([-2., -1.,  1.,  2.]), 1000000003.0)
>>> w, b_centred = np.array([1.0]), 0.0   # the threshold between 2 and 4, centred
>>> bias_with_offset(w, b_centred, centre)   # the same threshold on X + 1e9
-1000000003.0
"""

import numpy as np

from ..lp.separability import is_separable

__all__ = ["OFFSET_RATIO", "bias_with_offset", "remove_offset", "separable"]

#: Dense data whose largest magnitude exceeds their largest deviation from the column
#: means more than this many times are centred: far below the offsets at which the
#: solvers failed, and far above ordinary data (raw intensities, log expression,
#: standardised features stay below 10).
OFFSET_RATIO = 100.0


def remove_offset(X):
    """``(X - c, c)`` with c the column means of dense ``X`` when its largest magnitude
    exceeds its largest deviation from them :data:`OFFSET_RATIO`-fold; ``(X, None)``
    (the same array) otherwise."""
    X = np.asarray(X)
    if X.size == 0:
        return X, None
    centre = X.mean(axis=0)
    centred = X - centre
    if np.abs(X).max() > OFFSET_RATIO * np.abs(centred).max():
        return centred, centre
    return X, None


def bias_with_offset(w, b, centre):
    """The bias on the original data of the hyperplane (w, b) of the data minus
    ``centre`` (b itself when ``centre`` is None)."""
    if centre is None:
        return b
    return float(b - w @ centre)


def separable(X, y):
    """Whether a hyperplane separates the classes ``y`` (-1/+1) of dense ``X``: the
    separability LP (:func:`~sfmlearn.lp.separability.is_separable`) on X without its
    offset (:func:`remove_offset`) at unit scale, neither of which separability depends
    on. On raw X, HiGHS ended the plain feasibility LP with status 'Unknown' on random
    labels at data scale 3e3, the minimum-slack LP with 'Unbounded' on separable data
    plus 1e8, and it rejects matrix values of 1e15 or more."""
    X_lp, _ = remove_offset(X)
    scale = float(np.abs(X_lp).max(initial=0.0)) or 1.0
    return is_separable(X_lp / scale, y)
