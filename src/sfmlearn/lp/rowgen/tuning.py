"""The constants of row and column generation, read at call time (a diagnostic may set
them on this module). How each was chosen, with the benchmark command that measures
it: see the guide's row-generation page (``docs/guide/rowgen.md``)."""

from ..checks import GAP_TOL  # the certificate every engine's optimum passes

__all__ = [
    "COLD_ERRORS_GET_ROWS", "COLUMN_RATIO", "DROP_AFTER", "FIRST_ORDER_FROM",
    "FIRST_ORDER_SAMPLES_PER_COLUMN", "GAP_TOL", "INITIAL_ROWS", "MAX_DROPS", "ON_MARGIN",
    "ROWS_FROM", "SUBSAMPLE", "TIGHT_TOLERANCES", "WARM_BAND",
]

#: "auto" restricts the samples of problems with at least this many (see the guide's
#: row-generation page).
ROWS_FROM = 500
#: "auto" restricts the features when m > COLUMN_RATIO (expected master rows + 1) (see
#: the guide's row-generation page).
COLUMN_RATIO = 4
#: A master row inactive (satisfied with multiplier 0, or an error at its full price) in
#: this many consecutive solves leaves the master (see the guide's row-generation page).
DROP_AFTER = 1
#: A sample leaves the master at most this many times in a session, against cycling (see
#: the guide's row-generation page).
MAX_DROPS = 2
#: Samples this close to the start point's margin (relative to the activity scale) enter
#: the master as rows (see the guide's row-generation page).
ON_MARGIN = 1e-7
#: Samples of the LP whose solution is the cold start of hard problems and of soft ones
#: the first-order start cannot serve (see the guide's row-generation page).
SUBSAMPLE = 400
#: The first-order cold start keeps n / this many columns (at least the master's initial
#: columns) (see the guide's row-generation page).
FIRST_ORDER_SAMPLES_PER_COLUMN = 20
#: The first-order cold start serves problems with n >= FIRST_ORDER_FROM x columns (see
#: the guide's row-generation page).
FIRST_ORDER_FROM = 1.0
#: Whether the margin errors of a cold start get master rows rather than joining the
#: aggregated error rows (see the guide's row-generation page).
COLD_ERRORS_GET_ROWS = True
#: A warm solve gives master rows to the WARM_BAND x (samples on its start's margin)
#: samples nearest that margin (see the guide's row-generation page).
WARM_BAND = 3
#: Samples in the first master when the rows are restricted and ``initial_rows=None``
#: (see the guide's row-generation page).
INITIAL_ROWS = 100
#: HiGHS tolerances of the master's re-solve when a certificate fails (see the guide's
#: row-generation page).
TIGHT_TOLERANCES = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
