"""The master as one problem sees it: its working sets of features and samples.

The master (:class:`~sfmlearn.lp.master.Master`) names features by their raw ids and
samples by their row numbers; a problem may have any subset of the session's columns.
:class:`WorkingSet` keeps the two aligned (``positions``: the problem position of
every master feature) while features, rows and the aggregated error rows
(:mod:`.master`) enter.
"""

import numpy as np

from .state import locate

__all__ = ["WorkingSet"]


class WorkingSet:
    """The master of ``state`` synchronised to ``problem``: the features the problem
    lacks deleted, the others' costs and the equality's right-hand side set."""

    def __init__(self, state, problem):
        self.state = state
        self.problem = problem
        master, ids = state.master, problem.X.columns
        # Deletion keeps the order of the remaining features: ``at`` stays aligned.
        at, found = locate(ids, master.features)
        master.delete_features(master.features[~found])
        self.positions = at  # problem positions of the master's features, in master order
        if at.size:
            master.set_feature_costs(problem.feature_cost[at])
        self.in_master = np.zeros(problem.n_columns, dtype=bool)
        self.in_master[at] = True
        if problem.equality is not None:
            master.set_rhs(problem.equality.rhs)

    @property
    def master(self):
        return self.state.master

    def error_classes(self):
        """The ``ERR`` samples of each class."""
        return self.state.error_classes(self.problem.y)

    def add_rows(self, samples):
        """Give ``samples`` master rows."""
        samples = np.asarray(samples, dtype=np.intp)
        if samples.size == 0:
            return
        positions = self.positions
        block = self.problem.X.block(positions, rows=samples) if positions.size \
            else np.zeros((samples.size, 0))
        C = self.problem.slack_cost
        self.master.add_samples(samples, block, None if C is None else C[samples])

    def add_columns(self, positions):
        """Give the features at problem ``positions`` master columns (those not there
        yet); returns how many entered."""
        positions = np.asarray(positions, dtype=np.intp)
        positions = positions[~self.in_master[positions]]
        if positions.size == 0:
            return 0
        problem, master = self.problem, self.master
        rows = master.samples
        block = problem.X.block(positions, rows=rows) if rows.size else np.zeros((0, positions.size))
        eq_coef = None if problem.equality is None else problem.equality.coef[positions]
        aggregate = np.zeros((2, positions.size))
        for k, members in enumerate(self.error_classes()):
            if members.size and master.aggregate_row[k] >= 0:
                aggregate[k] = problem.X.exact_rmatvec(
                    self.problem.slack_cost[members] * problem.y[members], positions, members)
        master.add_features(problem.X.columns[positions], block, problem.feature_cost[positions],
                            eq_coef, aggregate)
        self.positions = np.r_[self.positions, positions].astype(np.intp)
        self.in_master[positions] = True
        return positions.size

    def set_slack_costs(self):
        """The problem's slack costs on the master rows (soft problems)."""
        rows = self.master.samples
        if self.problem.slack_cost is not None and rows.size:
            self.master.set_slack_costs(rows, self.problem.slack_cost[rows])

    def sync_aggregates(self):
        """Make the aggregated rows match the ``ERR`` samples and their current costs."""
        if self.problem.slack_cost is None:
            return
        problem, master, positions = self.problem, self.master, self.positions
        for k, members in enumerate(self.error_classes()):
            cost = self.problem.slack_cost[members] if members.size else None
            old = master.aggregate_cost[k]
            same = (old is None and cost is None) or (
                old is not None and cost is not None and old[0].size == members.size
                and np.array_equal(old[0], members) and np.array_equal(old[1], cost))
            if same:
                continue
            if cost is None:
                master.set_aggregate(k, None, 0.0, 0.0, None)
                continue
            u = cost * problem.y[members]
            coef = problem.X.exact_rmatvec(u, positions, members) if positions.size else np.zeros(0)
            master.set_aggregate(k, coef, float(u.sum()), float(problem.margin) * float(cost.sum()),
                                 (members, cost))

    def multipliers(self, lam_rows, nu):
        """(rows, lambda on them) of the extended multipliers: the master rows' and the
        ``ERR`` samples' (C_i times their aggregated row's dual); rows None when lambda
        is given for every sample (a full-length product is then faster than a gather)."""
        master = self.master
        parts_rows, parts_lam = [master.samples], [lam_rows]
        for k, members in enumerate(self.error_classes()):
            if members.size and master.aggregate_row[k] >= 0:
                parts_rows.append(members)
                parts_lam.append(nu[k] * self.problem.slack_cost[members])
        rows = np.concatenate(parts_rows)
        lam = np.concatenate(parts_lam)
        n = self.problem.n_samples
        if rows.size * 2 > n:
            full = np.zeros(n)
            full[rows] = lam
            return None, full
        order = np.argsort(rows, kind="stable")
        return rows[order], lam[order]

    def weights(self, w):
        """The master's weights on every problem column."""
        w_full = np.zeros(self.problem.n_columns)
        w_full[self.positions] = w
        return w_full
