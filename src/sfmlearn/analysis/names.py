"""The names and limits the analyses accept, without loading them: the command line's choices.

This module imports nothing, so ``sfmlearn COMMAND --help`` can list the choices while
NumPy and the data stay unloaded. Each tuple equals the library's own list (a test
compares them): :data:`DATASET_NAMES` the keys of :data:`sfmlearn.datasets.DATASETS`,
:data:`SIMULATION_DESIGNS` those of :data:`sfmlearn.imaging.simulate.DESIGNS`,
:data:`BOUNDARY_MODES` :data:`sfmlearn.imaging.BOUNDARY_MODES`.
"""

__all__ = ["BOUNDARY_MODES", "DATASET_NAMES", "MAX_MC_SUBSETS", "SELECTORS", "SIMULATION_DESIGNS", "UNWEIGHTED"]

#: Shipped datasets ``select``, ``path`` and ``repeat`` can use (two classes, one table).
DATASET_NAMES = ("arcene", "breast_cancer_wisconsin", "cleveland", "colon", "dexter", "ionosphere",
                 "leukemia", "liver", "madelon", "musk1", "pima", "sonar", "wpbc", "wpbc24", "wpbc60")
#: Designs of the fMRI simulation (``sfmlearn fmri --simulate``).
SIMULATION_DESIGNS = ("buttonpress", "emotion")
#: Border extrapolations of the Gaussian pyramid (thesis 5.1).
BOUNDARY_MODES = ("replicate", "circular", "linear", "quadratic")
#: Selectors of select/path/repeat: the SFM and Weston's zero-norm SVM (l1-AROM).
SELECTORS = ("sfm", "weston")
#: ``class_weight`` that asks for one C for every sample where the selector's own default
#: balances the classes (the SFM's cross-validated choice, the stability selection).
UNWEIGHTED = "none"
#: Monte-Carlo separability runs that would enumerate more subsets per trial are refused.
MAX_MC_SUBSETS = 10_000
