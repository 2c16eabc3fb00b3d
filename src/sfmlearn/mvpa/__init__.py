"""Multi-voxel pattern analysis with the SFM (NC 4, thesis 6): one module per job.

* :mod:`.decoding` -- leave-one-participant-out decoding (:func:`decode`);
* :mod:`.repetitive` -- the repetitive SFM in every fold, the informative fraction
  (:func:`repetitive_decoding`);
* :mod:`.univariate` -- the group paired t-map (:func:`paired_t_map`);
* :mod:`.overlap` -- top-q% sets, overlap with the t-map (NC Table 3) and with a truth;
* :mod:`.consistency` -- how often a voxel is in the folds' top q % (:func:`consistency_map`);
* :mod:`.random_subsets` -- SVMs on random voxel subsets (NC Fig. 3);
* :mod:`.permutation` -- label permutation within participants (thesis Fig. 6.8);
* :mod:`.rebalance` -- one-vs-all problems rebalanced by averaging (thesis 6.4.2);
* :mod:`.sweeps` -- time-slice and pyramid-level sweeps (thesis 6.4.3-6.4.4);
* :mod:`.workflow` -- all of the above on one data set (:func:`analyse`);
* :mod:`.data` -- one study's maps on a mask (:class:`FMRIData`): two classes, a coarser
  pyramid level with the truth, the selected voxels' coordinates (:func:`selected_voxels`).

Everything works on sample matrices; :class:`sfmlearn.imaging.volumes.VolumeMask`
turns NIfTI images into matrices and results back into images. Maps are dense by nature,
so a sparse matrix is converted to a dense array first, by every function alike.
"""

from .consistency import consensus, consistency_map
from .data import FMRIData, selected_voxels
from .decoding import Decoding, decode
from .overlap import NC_TABLE3, QUANTILES, is_ranking, overlap_with_tmap, overlap_with_truth, top_by_rank, top_by_score
from .permutation import PermutationDecoding, permuted_decoding
from .random_subsets import random_subset_svm, subset_sizes
from .rebalance import one_vs_rest_rebalanced
from .repetitive import RepetitiveDecoding, repetitive_decoding
from .sweeps import level_sweep, time_slice_sweep
from .univariate import TMap, paired_t_map
from .workflow import FMRIAnalysis, analyse, reference_svm

__all__ = [
    "NC_TABLE3",
    "QUANTILES",
    "Decoding",
    "FMRIAnalysis",
    "FMRIData",
    "PermutationDecoding",
    "RepetitiveDecoding",
    "TMap",
    "analyse",
    "consensus",
    "consistency_map",
    "decode",
    "is_ranking",
    "level_sweep",
    "one_vs_rest_rebalanced",
    "overlap_with_tmap",
    "overlap_with_truth",
    "paired_t_map",
    "permuted_decoding",
    "random_subset_svm",
    "reference_svm",
    "repetitive_decoding",
    "selected_voxels",
    "subset_sizes",
    "time_slice_sweep",
    "top_by_rank",
    "top_by_score",
]
