"""Which samples enter and leave the master.

Before a solve the samples are partitioned by their activities t_i = y_i (z_i . w + b)
under the start point (:func:`start_partition`): a *cold* solve (no master row yet)
gives rows to the samples nearest the start's margin, a *warm* one keeps the last
partition less the rows idle for :data:`~.tuning.DROP_AFTER` solves; both then give
rows to the samples on the margin (a warm one also to a band nearest it), mark the
other violated soft samples ``ERR`` (a cold start's get rows instead) and the satisfied
ones ``OUT``, and give rows to the most violated hard samples. During a solve
:func:`inconsistent_samples` finds the samples whose assumption fails; they only enter
``ROW``, so the rounds end.
"""

import numpy as np

from ..pricing import ROW_TOL
from . import tuning
from .state import ERR, OUT, ROW

__all__ = ["cold_partition", "idle_rows", "inconsistent_samples", "start_partition",
           "warm_partition"]


def most_violated(candidates, activity, margin, batch):
    """The ``batch`` samples of ``candidates`` with the lowest activity."""
    order = np.argsort(activity[candidates] - margin, kind="stable")
    return candidates[order[:batch]]


def cold_partition(distance, n_rows):
    """Rows for the ``n_rows`` samples nearest the start's margin; the others ``OUT``."""
    partition = np.full(distance.size, OUT, dtype=np.int8)
    partition[np.argsort(distance, kind="stable")[:n_rows]] = ROW
    return partition


def warm_partition(state):
    """The last partition less the rows idle for DROP_AFTER solves (at most MAX_DROPS
    times per sample: no cycling)."""
    partition = state.partition.copy()
    drop = ((partition == ROW) & (state.inactive >= tuning.DROP_AFTER)
            & (state.drops < tuning.MAX_DROPS))
    partition[drop] = OUT
    return partition


def add_margin_rows(partition, distance, on_margin_tol, band_factor):
    """Rows for the samples on the start's margin - they carry its basis - and for the
    ``band_factor`` times as many samples nearest it."""
    on_margin = distance <= on_margin_tol
    partition[on_margin] = ROW
    band = int(band_factor * np.count_nonzero(on_margin))
    if band:
        partition[np.argsort(distance, kind="stable")[:band]] = ROW


def place_free_samples(partition, activity, margin, tol, slack_cost, errors_get_rows, batch):
    """The samples without a row: violated soft ones ``ERR`` (or ``ROW`` when
    ``errors_get_rows``), satisfied ones ``OUT``, the ``batch`` most violated hard ones
    ``ROW``."""
    free = partition != ROW
    violated = activity < margin - tol
    if slack_cost is None:
        hard = np.ones(partition.size, dtype=bool)
    else:
        hard = ~np.isfinite(slack_cost)
        partition[free & violated & ~hard] = ROW if errors_get_rows else ERR
        partition[free & ~violated] = OUT
    hard_bad = np.flatnonzero(free & violated & hard)
    if hard_bad.size:
        partition[most_violated(hard_bad, activity, margin, batch)] = ROW


def start_partition(state, activity, scale, margin, slack_cost, initial_rows, batch):
    """The partition of a restricted solve from its start point's ``activity`` (module
    docstring)."""
    distance = np.abs(activity - margin)
    cold = not np.any(state.partition == ROW)
    partition = cold_partition(distance, initial_rows) if cold else warm_partition(state)
    add_margin_rows(partition, distance, tuning.ON_MARGIN * scale, 0 if cold else tuning.WARM_BAND)
    # A cold start is too rough to trust its errors.
    place_free_samples(partition, activity, margin, ROW_TOL * scale, slack_cost,
                       cold and tuning.COLD_ERRORS_GET_ROWS, batch)
    return partition


def inconsistent_samples(partition, activity, scale, margin, slack_cost, batch):
    """Samples whose assumption the master's solution breaks: ``ERR`` ones above the
    margin, violated soft ``OUT`` ones, and the ``batch`` most violated hard ``OUT``
    ones. They get rows at once; moving soft ones between ``OUT`` and ``ERR`` instead
    costs more simplex iterations (see the guide's row-generation page)."""
    tol = ROW_TOL * scale
    violated = activity < margin - tol
    above = activity > margin + tol
    out_bad = (partition == OUT) & violated
    finite = np.isfinite(slack_cost) if slack_cost is not None else np.zeros(partition.size, bool)
    to_row = np.flatnonzero(((partition == ERR) & above) | (out_bad & finite))
    hard_bad = np.flatnonzero(out_bad & ~finite)
    if hard_bad.size:
        to_row = np.r_[to_row, most_violated(hard_bad, activity, margin, batch)]
    return to_row


def idle_rows(rows, activity, margin, lam_rows, slack_cost):
    """Which master ``rows`` were inactive at the optimum: satisfied with multiplier 0,
    or a soft error at its full price."""
    if slack_cost is not None:
        price = np.where(np.isfinite(slack_cost[rows]), slack_cost[rows], np.inf)
        at_price = np.isclose(lam_rows, price, rtol=1e-9)
    else:
        at_price = np.zeros(rows.size, dtype=bool)
    slack_row = (activity[rows] > margin + 1e-9) & (lam_rows <= 1e-12)
    return slack_row | at_price
