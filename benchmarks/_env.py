"""Import first in every benchmark: one BLAS thread for stable, comparable timings.

On a loaded 2-core machine multi-threaded OpenBLAS made a single 88 x 6362 gemv 100x
slower (12 ms instead of 0.06 ms); every method compared in a run is measured under
the same setting, so the ratios are fair.
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
