"""One study's maps on a brain mask, made ready for :func:`~sfmlearn.mvpa.analyse`.

:class:`FMRIData` holds the sample matrix (n_maps, n_voxels) in the mask's voxel order,
a label and a participant (or run) per map and, for simulated data, the informative
voxels (the truth). Two steps prepare it for a decoding analysis:

* :meth:`FMRIData.two_classes` keeps the maps of the two labels to decode;
* :meth:`FMRIData.at_level` moves the maps to a coarser pyramid level (thesis 6.4.4:
  level 1 takes every second voxel, further levels reduce with the Gaussian pyramid)
  and the truth with them: a coarse voxel is informative when the fine voxel it
  samples is.

:meth:`FMRIData.from_simulation` picks the two conditions of a simulation and their
truth (all informative voxels with two conditions; with more, where the pair's
participant-free patterns differ). :func:`selected_voxels` lists the voxels a fitted
selector chose with their voxel indices and world (MNI) coordinates.
"""

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from sklearn.utils.validation import check_is_fitted

from ..exceptions import DataValidationError
from ..imaging.volumes import VolumeMask, downsample, downsample_mask
from ._checks import plain
from ._docs import mvpa_doc

__all__ = ["FMRIData", "selected_voxels"]


@mvpa_doc
@dataclass(frozen=True)
class FMRIData:
    """Maps of one study on a brain mask.

    Parameters
    ----------
    name : str
        Where the maps come from (shown in summaries).
    mask : VolumeMask
        The maps' voxels; column j of ``X`` is ``mask.voxel_indices[j]``.
    X : ndarray (n_maps, n_voxels)
        The maps.
    labels, groups : ndarray (n_maps,)
        Condition and participant (or run) of every map.
    truth : ndarray of bool (n_voxels,) or None
        The informative voxels, when known (simulated data).
    level : int
        Pyramid level of the maps relative to the images they were read from.
    simulation : SimulatedFMRI or None
        The simulation the maps come from (its parameters, and ``save`` to write it).

    Examples
    --------
    %(toy_volumes)s
    >>> from sfmlearn.mvpa import FMRIData
    >>> data = FMRIData("toy", mask, X, y, groups)
    >>> data.X.shape, data.mask.n_voxels
    ((24, 50), 50)
    """

    name: str
    mask: VolumeMask
    X: np.ndarray
    labels: np.ndarray
    groups: np.ndarray
    truth: np.ndarray | None = None
    level: int = 0
    simulation: object = None

    @classmethod
    def from_simulation(cls, simulation, classes=None, *, name="simulated data", option="classes"):
        """The maps of two conditions of a :class:`~sfmlearn.imaging.simulate.SimulatedFMRI`.

        ``classes`` defaults to the simulation's first two conditions; ``option`` names
        the parameter in error messages (the command line passes its flag).
        """
        conditions = [str(c) for c in simulation.conditions]
        pair = list(conditions[:2] if classes is None else classes)
        missing = [c for c in pair if c not in conditions]
        if missing:
            raise DataValidationError(f"{option} {missing} not among the labels {sorted(conditions)}")
        # with two conditions the truth includes every participant's shifted clusters; for a
        # pair out of more it is where the pair's participant-free patterns differ
        truth = simulation.truth if len(conditions) == 2 else simulation.truth_for(*pair)
        data = cls(name=name, mask=simulation.mask, X=simulation.X, labels=simulation.labels.astype(str),
                   groups=simulation.participants, truth=truth, simulation=simulation)
        return data.two_classes(pair, option=option)

    def two_classes(self, classes=None, *, option="classes"):
        """The maps of the labels ``classes`` (two of them); None keeps data with exactly two.

        Labels are compared as text (as they are read from files), so ``[1, 2]`` names the
        labels ``"1"`` and ``"2"``. ``option`` names the parameter in error messages.
        """
        labels = np.asarray(self.labels).astype(str)
        present = np.unique(labels)
        if classes is None:
            if present.size < 2:
                raise DataValidationError(f"every map has the label '{present[0]}'; decoding needs maps of two "
                                          "classes" if present.size else "there are no maps to decode")
            if present.size > 2:
                raise DataValidationError(f"found labels {present.tolist()}; {option} must name two of them")
            return self
        classes = [str(plain(c)) for c in classes]
        missing = [c for c in classes if c not in present]
        if missing:
            raise DataValidationError(f"{option} {missing} not among the labels {present.tolist()}")
        if len(set(classes)) != 2:
            raise DataValidationError(f"{option} must name two different labels; got {list(classes)}")
        keep = np.isin(labels, classes)
        return replace(self, X=self.X[keep], labels=labels[keep], groups=np.asarray(self.groups)[keep])

    def at_level(self, level, *, option="level"):
        """The maps ``level`` pyramid levels coarser (thesis 6.4.4), with the truth moved along.

        A coarse voxel is informative when the fine voxel it samples is; a truth with no
        informative voxel left becomes None. ``option`` names the parameter in errors.
        """
        if level == 0:
            return self
        try:
            volumes, mask = downsample(self.mask.volumes(self.X), self.mask, level)
        except DataValidationError as exc:
            raise DataValidationError(f"{option} {level} is too coarse for this mask ({exc})") from exc
        return replace(self, mask=mask, X=mask.matrix(volumes), truth=self._truth_at(level, mask),
                       level=self.level + level)

    def _truth_at(self, level, coarse_mask):
        if self.truth is None:
            return None
        fine = VolumeMask(self.mask.volumes(self.truth, fill=False), self.mask.affine, self.mask.space_code)
        try:
            truth = downsample_mask(fine, level).data[coarse_mask.data]
        except DataValidationError:  # no informative voxel is sampled at this level
            return None
        return truth if truth.any() else None


@mvpa_doc
def selected_voxels(mask, selector):
    """The voxels a fitted selector chose, largest |scaled weight| first.

    Columns: voxel (column index), i, j, k (voxel indices), x_mm, y_mm, z_mm (world
    coordinates from the mask's affine, MNI for MNI-space data), weight_scaled (weight
    on the scaled voxels) and weight (input space). ``selector`` needs ``support_``,
    ``scaled_coef_`` and ``coef_`` (as :class:`~sfmlearn.selection.SupportFeatureMachine`)
    and must have been fitted on the mask's voxels (as many features as the mask has voxels).

    Parameters
    ----------
    mask : VolumeMask
        The mask whose voxels are the selector's features.
    selector : fitted estimator
        With ``support_``, ``scaled_coef_`` and ``coef_``.

    Returns
    -------
    pandas.DataFrame
        One row per selected voxel (columns above).

    Examples
    --------
    %(toy_volumes)s
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.mvpa import selected_voxels
    >>> table = selected_voxels(mask, SupportFeatureMachine().fit(X, y))
    >>> table[["voxel", "i", "j", "y_mm"]]
       voxel  i  j  y_mm
    0      0  0  0   0.0
    1      1  0  1   3.0
    """
    _check_selector_on(mask, selector)
    selected = np.flatnonzero(selector.support_)
    order = selected[np.argsort(-np.abs(selector.scaled_coef_[selected]))]
    ijk = mask.voxel_indices[order]
    xyz = (mask.affine @ np.c_[ijk, np.ones(len(order))].T).T[:, :3]
    return pd.DataFrame({"voxel": order, "i": ijk[:, 0], "j": ijk[:, 1], "k": ijk[:, 2],
                         "x_mm": xyz[:, 0], "y_mm": xyz[:, 1], "z_mm": xyz[:, 2],
                         "weight_scaled": selector.scaled_coef_[order], "weight": selector.coef_[0, order]})


def _check_selector_on(mask, selector):
    """DataValidationError unless ``selector`` is a fitted single-subset selector whose
    features are the voxels of ``mask``."""
    check_is_fitted(selector)
    missing = [name for name in ("support_", "scaled_coef_", "coef_") if not hasattr(selector, name)]
    if missing:
        raise DataValidationError(
            f"selected_voxels needs a selector with support_, scaled_coef_ and coef_ (one subset and its weights, "
            f"as SupportFeatureMachine); {type(selector).__name__} has no {', '.join(missing)}. For the repetitive "
            "SFM, fit its base estimator to list one subset, or read its ranking_ for the voxels of every repetition.")
    n_features = getattr(selector, "n_features_in_", np.size(selector.support_))
    if n_features != mask.n_voxels:
        raise DataValidationError(
            f"the selector was fitted on {n_features} features, the mask has {mask.n_voxels} voxels; fit it on "
            "mask.matrix(images) (the voxels of this mask, in its order), or pass the mask of its features.")
