"""Solvers beyond the simplex method, and the loop that drives the engines.

* :mod:`.reweighting`: the reweighting loop (DCA on the hyperplane problems) that fits
  every LP/QP-based selector: ``iterated_l1(problem, penalty, engine)`` with a problem
  of :mod:`.problem` (rows, slack costs, equality) and a penalty of :mod:`.penalties`;
* :mod:`.dca`: the generic DCA of ML05 4.1 (kernel-target alignment);
* :mod:`.qp`: the interior-point QP of ML05's l2 models and soft-margin SVMs
  (:class:`~.qp.QPEngine`, the ``ridge_qp`` engine of :mod:`sfmlearn.lp.protocol`);
* :mod:`.hard_margin`: the hard-margin SVM, exactly, by Wolfe's nearest points;
* :mod:`.svm`: :func:`linear_svm`, the (hard or soft) linear SVM the refits use;
* :mod:`.cd`: coordinate descent for the P-SVM's box-constrained l1 QP;
* :func:`single_blas_thread`: one BLAS thread for their small dense linear algebra.
"""

from ._threads import single_blas_thread
from .dca import DCAResult, dca, stopped_moving
from .hard_margin import hard_margin_svm
from .penalties import ExponentialPenalty, L1Penalty, Penalty, ZeroNorm
from .problem import BuilderProblem, HyperplaneProblem, SFMProblem, WestonProblem
from .qp import QPEngine, solve_hyperplane_qp
from .reweighting import ITERATED_L1_TOL, IteratedL1Result, flipped_start, iterated_l1
from .svm import linear_svm

__all__ = [
    "DCAResult", "ExponentialPenalty", "HyperplaneProblem", "ITERATED_L1_TOL", "L1Penalty", "Penalty", "QPEngine", "SFMProblem", "WestonProblem",
    "ZeroNorm", "dca", "flipped_start", "hard_margin_svm", "iterated_l1", "linear_svm", "single_blas_thread",
    "solve_hyperplane_qp", "stopped_moving",
]
