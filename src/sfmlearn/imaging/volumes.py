"""NIfTI volumes <-> sample matrices through a brain mask, and volume downsampling.

The mass of an fMRI analysis is a set of 3-D maps (beta images, one per participant,
run and condition) on one grid. Machine learning wants a matrix: one row per map, one
column per in-mask voxel (thesis 6.1: "the volumetric data is linearised"). A
:class:`VolumeMask` does both directions:

    X = mask.transform(images)             # (n_maps, n_voxels), voxels in C order
    image = mask.inverse_transform(w)      # weights, ranks, frequencies -> NIfTI

Voxel order is the C order of ``numpy.argwhere(mask)`` (i slowest, k fastest), the
order of ``mask.data[mask.data]`` and of :func:`sfmlearn.datasets.load_haxby`'s
columns. Every image must lie on the mask's grid: same spatial shape and the same
affine (to 1e-3 mm); nothing is resampled silently.

Downsampling (thesis 6.4.4) by pyramid levels, :func:`downsample`:

* level 1 is plain subsampling, ``v[::2, ::2, ::2]`` -- the data were already
  low-pass filtered by the spatial smoothing of preprocessing (thesis: "For the first
  level, the input data was simply subsampled");
* every further level is one Gaussian-pyramid ``reduce`` (binomial [1 4 6 4 1]/16
  filter, then every second voxel) with linear boundary extrapolation at the mask's
  edge (:func:`sfmlearn.imaging.pyramid.reduce`, thesis 5.1).

**The downsampled mask** of every level is the previous mask subsampled the same way,
``mask[::2, ::2, ::2]`` (:func:`~sfmlearn.imaging.pyramid.reduce_mask`): a coarse
voxel is inside iff the fine voxel it is taken from -- the one at even indices, at
the same position in space -- is inside. This keeps every coarse value a function of
in-mask data only (the reduce filter reads outside voxels only as extrapolations from
inside ones) and reduces the voxel count by about 8 per level, as in the thesis
(50989, 6362, 791, 98 voxels). Axes of length 1 (a single slice) are not spatial axes
and are kept. **Affine**: coarse voxel i' sits where fine voxel 2 i' sat, so the new
affine is ``affine @ diag(2, 2, 2, 1)`` on the subsampled axes (the origin is
unchanged, the voxel size doubles).
"""

import warnings
from dataclasses import dataclass
from numbers import Integral
from os import PathLike

import nibabel as nib
import numpy as np

from ..exceptions import DataValidationError
from ..utils.grids import grid_difference, same_grid
from ._docs import imaging_doc
from .images import nifti_data, to_dtype
from .pyramid import reduce as pyramid_reduce

__all__ = ["VolumeMask", "downsample", "downsample_mask", "load_image", "load_images"]


@imaging_doc
def load_image(source, *, what="image"):
    """A NIfTI image from a path or a nibabel image; a clear error for unreadable files.

    Values are read into memory (float data keep their dtype, others become float64), after
    the header is checked against the file's size (:func:`~sfmlearn.imaging.images.nifti_data`).

    Parameters
    ----------
    source : str, path or nibabel image
        The image.
    what : str, default="image"
        Names it in error messages.

    Returns
    -------
    nibabel.Nifti1Image
        With its data in memory.

    Examples
    --------
    %(tiny_nifti)s
    >>> from sfmlearn.imaging.volumes import load_image
    >>> load_image(image).shape
    (2, 2, 2)
    """
    if isinstance(source, nib.spatialimages.SpatialImage):
        return source
    if not isinstance(source, (str, PathLike)):
        raise DataValidationError(
            f"{what} must be a NIfTI file path or a nibabel image; got {type(source).__name__}.")
    try:
        image = nib.load(str(source))
        data = nifti_data(image, f"{what} {source}")
    except FileNotFoundError as exc:
        raise DataValidationError(f"{what} {source}: no such file.") from exc
    except DataValidationError:
        raise
    except Exception as exc:  # nibabel raises many kinds for corrupt or foreign files
        raise DataValidationError(
            f"{what} {source} is not a readable NIfTI image ({type(exc).__name__}: {exc}).") from exc
    return nib.Nifti1Image(data, image.affine, image.header)


@imaging_doc
def load_images(images, *, grid=None):
    """Stack 3-D and 4-D images (paths or nibabel images) into (x, y, z, n_maps) + affine.

    4-D images contribute their volumes in order. All images must share the grid of
    the first (shape and affine), or ``grid``; otherwise the error names the first image
    that differs.

    Parameters
    ----------
    images : sequence of str, path or nibabel image
        3-D or 4-D images on one grid.
    grid : (shape, affine, name), optional
        The grid every image must be on (a mask's), named in the error.

    Returns
    -------
    data : ndarray of shape (x, y, z, n_maps)
        The volumes.
    affine : ndarray of shape (4, 4)
        Their common affine.

    Examples
    --------
    %(tiny_nifti)s
    >>> from sfmlearn.imaging.volumes import load_images
    >>> data, affine = load_images([image, image])
    >>> data.shape
    (2, 2, 2, 2)
    """
    if isinstance(images, (str, PathLike, nib.spatialimages.SpatialImage)):
        images = [images]
    images = list(images)
    if not images:
        raise DataValidationError("no images given.")
    volumes, affine, shape, first = [], None, None, None
    if grid is not None:
        shape, affine, first = tuple(grid[0]), np.asarray(grid[1], dtype=np.float64), grid[2]
    for source in images:
        image = load_image(source)
        data = np.asarray(image.dataobj)
        name = source if isinstance(source, (str, PathLike)) else "an image"
        if data.ndim == 3:
            data = data[..., None]
        elif data.ndim == 5 and data.shape[3] == 1:  # some tools write 4-D as x, y, z, 1, t
            data = data[:, :, :, 0, :]
        if data.ndim != 4:
            raise DataValidationError(f"{name} has shape {data.shape}; expected a 3-D or 4-D volume.")
        if affine is None:
            affine, shape, first = image.affine, data.shape[:3], name
        elif not same_grid(data.shape[:3], image.affine, shape, affine):
            difference = grid_difference(data.shape[:3], image.affine, shape, affine)
            raise DataValidationError(
                f"{name} is not on the grid of {first} ({difference}). Resample all images to one grid first.")
        volumes.append(data)
    return np.concatenate(volumes, axis=3), np.array(affine, dtype=np.float64)


#: Largest magnitude a map's value may have: its square (a variance) stays finite.
LARGEST_VALUE = 1e150


@dataclass(frozen=True, eq=False)
@imaging_doc
class VolumeMask:
    """A brain mask on a voxel grid: the map between volumes and sample matrices.

    Parameters
    ----------
    data : bool array of shape (x, y, z)
        True for the voxels that become columns.
    affine : array of shape (4, 4)
        Voxel indices -> world (scanner/MNI) millimetres, as in NIfTI.
    space_code : int, default=1
        The NIfTI code of that world space (1 scanner, 2 aligned, 3 Talairach, 4 MNI),
        read from the mask's header by :meth:`load` and written into every map.

    Examples
    --------
    %(one_mm_mask)s
    >>> volume = np.arange(32.0).reshape(4, 4, 2)
    >>> mask.matrix(volume).shape   # one row per map, one column per voxel
    (1, 32)
    >>> mask.volumes(mask.matrix(volume)).shape   # and back
    (4, 4, 2, 1)
    """

    data: np.ndarray
    affine: np.ndarray
    space_code: int = 1

    def __post_init__(self):
        data = np.asarray(self.data)
        if data.ndim != 3:
            raise DataValidationError(f"a mask must be 3-D; got shape {data.shape}.")
        affine = np.asarray(self.affine, dtype=np.float64)
        if affine.shape != (4, 4) or not np.all(np.isfinite(affine)):
            raise DataValidationError("the mask affine must be a finite 4 x 4 matrix.")
        if data.dtype.kind == "f" and np.isnan(data).any():  # NaN != 0 would count as inside
            raise DataValidationError("the mask contains NaN values; voxels are inside where the mask is non-zero.")
        data = data != 0
        if not data.any():
            raise DataValidationError("the mask is empty: it selects no voxel (voxels are inside where it is "
                                      "non-zero); check that it is the mask and not a map.")
        if self.space_code not in SPACE_CODES:
            raise DataValidationError(f"space_code must be a NIfTI space code {sorted(SPACE_CODES)} (1 scanner, "
                                      f"4 MNI); got {self.space_code!r}")
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "affine", affine)

    @classmethod
    def load(cls, mask):
        """From a :class:`VolumeMask`, a NIfTI path or image (non-zero voxels are inside)."""
        if isinstance(mask, cls):
            return mask
        image = load_image(mask, what="mask")
        data = np.asarray(image.dataobj)
        if data.ndim == 4 and data.shape[3] == 1:
            data = data[..., 0]
        if data.ndim != 3:
            raise DataValidationError(f"the mask must be a 3-D image; got shape {data.shape}.")
        if not np.all(np.isfinite(data)):
            raise DataValidationError("the mask contains NaN or infinite values.")
        values = np.unique(data[data != 0])
        if values.size > 1 and data.dtype.kind == "f":  # a probability map, not a binary mask
            warnings.warn(f"the mask holds {values.size} different non-zero values (from {values.min():.3g} to "
                          f"{values.max():.3g}); every non-zero voxel is inside. For a probability map, "
                          "threshold it first.", UserWarning, stacklevel=2)
        return cls(data != 0, image.affine, _space_code(image.header))

    @property
    def shape(self):
        return self.data.shape

    @property
    def n_voxels(self):
        return int(self.data.sum())

    @property
    def voxel_indices(self):
        """(n_voxels, 3) integer i, j, k of every column, in column order."""
        return np.argwhere(self.data)

    @property
    def voxel_size(self):
        """Edge lengths (mm) of a voxel along i, j, k (norms of the affine's columns)."""
        return np.linalg.norm(self.affine[:3, :3], axis=0)

    def coordinates(self):
        """(n_voxels, 3) world coordinates (mm) of every column's voxel centre."""
        ijk = self.voxel_indices
        return ijk @ self.affine[:3, :3].T + self.affine[:3, 3]

    def image(self):
        """The mask as a uint8 NIfTI image (1 inside)."""
        return _nifti(self.data.astype(np.uint8), self.affine, self.space_code)

    def transform(self, images):
        """Sample matrix (n_maps, n_voxels), float64, from 3-D/4-D images on the mask's grid.

        Raises if a map has NaN or infinite values inside the mask (fix the mask or the
        images: a voxel undefined in one map cannot be a feature, cf. thesis 6.4.3).
        """
        data, _ = load_images(images, grid=(self.shape, self.affine, "the mask"))
        return self.matrix(data)

    def matrix(self, volumes):
        """Sample matrix from a (x, y, z) or (x, y, z, n_maps) array on the mask's grid."""
        volumes = np.asarray(volumes)
        if volumes.ndim == 3:
            volumes = volumes[..., None]
        if volumes.ndim != 4 or volumes.shape[:3] != self.shape:
            raise DataValidationError(
                f"volumes of shape {volumes.shape} do not match the mask's grid {self.shape}.")
        if volumes.dtype.kind not in "biuf":  # complex (the imaginary part would be dropped), RGB records
            raise DataValidationError(
                f"the maps hold {volumes.dtype} values; sfmlearn decodes real numbers (one value per voxel): "
                "convert them first (e.g. the magnitude of complex data).")
        X = volumes[self.data].T.astype(np.float64)
        bad = ~np.isfinite(X)
        if bad.any():
            maps, voxels = np.nonzero(bad)
            raise DataValidationError(
                f"{bad.sum()} NaN or infinite values inside the mask (first: map {int(maps[0]) + 1}, "
                f"voxel {tuple(int(i) for i in self.voxel_indices[voxels[0]])}). Exclude those voxels from the "
                "mask or fix the images.")
        largest = float(np.abs(X).max()) if X.size else 0.0
        if largest > LARGEST_VALUE:
            raise DataValidationError(
                f"values up to {largest:.3g} inside the mask: their squares overflow double precision (the "
                "decoders standardise every voxel); rescale the maps (e.g. divide them by their largest value).")
        return X

    def volumes(self, values, *, fill=0.0):
        """Inverse of :meth:`matrix`: (n_voxels,) -> (x, y, z); (k, n_voxels) -> (x, y, z, k)."""
        values = np.asarray(values)
        if values.ndim not in (1, 2) or values.shape[-1] != self.n_voxels:
            raise DataValidationError(
                f"values of shape {values.shape} do not fit the mask: the last axis must have "
                f"one entry per in-mask voxel ({self.n_voxels}).")
        dtype = np.result_type(values.dtype, np.asarray(fill).dtype)
        out = np.full(self.shape + values.shape[:-1], fill, dtype=dtype)
        out[self.data] = values.T
        return out

    def inverse_transform(self, values, *, fill=0.0, dtype=np.float32, description=None):
        """NIfTI image of one value per voxel (3-D) or of k rows of values (4-D).

        Use it for weights, t values, selection frequencies (``fill=0``) or rankings
        (integers; ``fill=0`` marks "outside the mask or never ranked"). ``description``
        goes into the header's 80-character ``descrip`` field (e.g. a licence note).
        For an integer ``dtype`` the values are rounded; values (or ``fill``) that
        ``dtype`` cannot hold -- beyond its range, or NaN in an integer type -- are refused,
        not wrapped or cast to infinity (:func:`~sfmlearn.imaging.images.to_dtype`).
        """
        data, _ = to_dtype(self.volumes(values, fill=fill), dtype, what="the map", clip=False)
        image = _nifti(data, self.affine, self.space_code)
        if description:
            image.header["descrip"] = description.encode("ascii", "replace")[:79]
        return image


#: NIfTI codes of a world space a map can be written in (0, "unknown", would drop the affine).
SPACE_CODES = frozenset({1, 2, 3, 4, 5})


def _space_code(header):
    """The NIfTI space code of an image header (sform's, else qform's); 1 (scanner) for other
    formats and for codes NIfTI does not define."""
    try:
        code = int(header["sform_code"]) or int(header["qform_code"])
    except (KeyError, ValueError, TypeError):  # MGH, Analyze: no such fields
        return 1
    return code if code in SPACE_CODES else 1


def _nifti(data, affine, space_code):
    image = nib.Nifti1Image(data, affine)
    image.header.set_xyzt_units("mm", "sec")
    image.set_qform(affine, code=space_code)
    image.set_sform(affine, code=space_code)
    return image


@imaging_doc
def downsample(volumes, mask, level):
    """Volumes and mask at pyramid ``level`` (thesis 6.4.4); see the module docstring.

    Parameters
    ----------
    volumes : array of shape (x, y, z) or (x, y, z, n_maps)
        On the grid of ``mask``. Only in-mask values are read.
    mask : VolumeMask
        The grid of ``volumes``.
    level : int >= 0
        0 returns the input; 1 subsamples; each further level is one pyramid reduce with
        linear extrapolation at the mask's edge.

    Returns
    -------
    volumes : ndarray
        The volumes at the coarse level, NaN outside the coarse mask.
    mask : VolumeMask
        The coarse mask.

    Examples
    --------
    %(one_mm_mask)s
    >>> from sfmlearn.imaging.volumes import downsample
    >>> volumes, coarse = downsample(np.arange(32.0).reshape(4, 4, 2), mask, 1)
    >>> volumes.shape, coarse.shape
    ((2, 2, 1), (2, 2, 1))
    """
    level = _check_level(level)
    mask = VolumeMask.load(mask)
    values = np.asarray(volumes, dtype=np.float64)
    squeeze = values.ndim == 3
    if squeeze:
        values = values[..., None]
    if values.ndim != 4 or values.shape[:3] != mask.shape:
        raise DataValidationError(
            f"volumes of shape {np.shape(volumes)} do not match the mask's grid {mask.shape}.")
    spatial = _spatial_axes(mask)
    fine = mask
    values = np.where(fine.data[..., None], values, np.nan)
    for current in range(1, level + 1):
        coarse = downsample_mask(mask, current)
        if current == 1:
            values = values[_every_second(spatial)]
        else:
            values = _reduce_once(values, fine.data, spatial)
        fine = coarse
        values = np.where(fine.data[..., None], values, np.nan)
    return (values[..., 0] if squeeze else values), fine


@imaging_doc
def downsample_mask(mask, level):
    """The mask of pyramid ``level``: ``mask[::2, ::2, ::2]`` ``level`` times, affine updated.

    See the module docstring for the rule (a coarse voxel is inside iff the fine voxel
    at its position is) and the affine (``affine @ diag(2, 2, 2, 1)`` per level).
    Singleton axes are kept as they are.

    Parameters
    ----------
    mask : VolumeMask
        The fine mask.
    level : int >= 0
        Pyramid level.

    Returns
    -------
    VolumeMask
        The coarse mask.

    Examples
    --------
    %(one_mm_mask)s
    >>> from sfmlearn.imaging.volumes import downsample_mask
    >>> coarse = downsample_mask(mask, 1)
    >>> coarse.shape, coarse.affine.diagonal()
    ((2, 2, 1), array([2., 2., 2., 1.]))
    """
    level = _check_level(level)
    mask = VolumeMask.load(mask)
    spatial = _spatial_axes(mask)
    data, affine = mask.data, mask.affine
    step = np.ones(4)
    step[spatial] = 2.0
    for current in range(1, level + 1):
        if max(data.shape) == 1:  # checked per level, so that a huge level fails at once
            raise DataValidationError(
                f"the mask is a single voxel at level {current - 1}, with nothing left to subsample; "
                f"use level <= {current - 1}.")
        data = data[_every_second(spatial)]
        affine = affine @ np.diag(step)
        if not data.any():
            raise DataValidationError(
                f"the mask has no voxel left at level {current}; use level <= {current - 1}.")
    return VolumeMask(data, affine, mask.space_code)


def _check_level(level):
    if isinstance(level, bool) or not isinstance(level, Integral) or level < 0:
        raise DataValidationError(f"level must be a non-negative integer; got {level!r}.")
    return int(level)


def _spatial_axes(mask):
    """Axes longer than one voxel (a single slice keeps its third axis)."""
    return [a for a in range(3) if mask.shape[a] > 1]


def _every_second(spatial):
    return tuple(slice(None, None, 2) if a in spatial else slice(None) for a in range(3))


def _reduce_once(values, inside, spatial):
    """One pyramid reduce over the spatial axes (singleton axes squeezed out and back)."""
    singleton = [a for a in range(3) if a not in spatial]
    squeezed = np.squeeze(values, axis=tuple(singleton)) if singleton else values
    squeezed_mask = np.squeeze(inside, axis=tuple(singleton)) if singleton else inside
    try:
        reduced = pyramid_reduce(squeezed, "linear", mask=squeezed_mask, channel_axis=-1)
    except DataValidationError as exc:
        raise DataValidationError(f"cannot reduce the volumes one more level: {exc}") from exc
    for axis in singleton:
        reduced = np.expand_dims(reduced, axis)
    return reduced
