"""The Potential Support Vector Machine (Hochreiter & Obermayer; PSVM 2-4).

* :mod:`.linear`: :class:`PotentialSVM` (selection and classification) and
  :class:`PotentialSVR` (regression), the dual P-SVM QP with redundancy control;
* :mod:`.nonlinear`: :class:`NonlinearPSVM`, relevances read off a trained tanh network
  (:mod:`.mlp`) by one P-SVM regression per hidden unit;
* :mod:`.problem`: the QP of one data matrix (standardisation, merged duplicate
  columns, the search for a feature count) that both use.
"""

from .linear import PotentialSVM, PotentialSVR
from .nonlinear import NonlinearPSVM

__all__ = ["NonlinearPSVM", "PotentialSVM", "PotentialSVR"]
