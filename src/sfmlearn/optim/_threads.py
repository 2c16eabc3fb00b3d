"""One BLAS thread for the small dense linear algebra of the QP and alignment solvers.

Their matrices have at most a few thousand rows. On our shared 2-core test machine
one BLAS thread factorised a 166 x 166 matrix in 0.7 ms where OpenBLAS' default
threads took 10 ms, and the test suite ran in 22 s instead of 88 s. The limit holds
only inside the ``with`` block. The controller, which inspects the loaded libraries, is
built on the first use, so that importing sfmlearn does not pay for it.
"""

import functools

__all__ = ["single_blas_thread"]


@functools.cache
def _controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def single_blas_thread():
    """Context manager limiting BLAS to one thread.

    Returns
    -------
    contextlib.AbstractContextManager
        Inside it, BLAS (through threadpoolctl) uses one thread.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.optim import single_blas_thread
    >>> with single_blas_thread():
    ...     product = np.ones((50, 50)) @ np.ones(50)
    >>> float(product[0])
    50.0
    """
    return _controller().limit(limits=1, user_api="blas")
