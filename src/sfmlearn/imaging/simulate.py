"""fMRI-like beta maps with known informative voxels (NC 4.1, thesis 6.3-6.4).

The two fMRI studies of the thesis are not public, so the workflow is checked on
simulations that look like them and know the answer. Every map is one beta image of
one participant p, run (or trial) r and condition c, optionally of one time slice t:

    beta_{p,r,c,t}(v) = b_p(v) + h(t) g_p sum_k a_{c,k} phi_{p,k}(v) + sigma e_{p,r,c,t}(v)

* ``e`` is white Gaussian noise smoothed with a Gaussian kernel of ``fwhm`` mm and
  scaled back to unit variance (the preprocessing smoothing of NC 4.1: 8 mm);
  ``sigma`` = ``noise``.
* ``b_p`` is a smooth participant map shared by all of p's maps
  (``participant_noise`` times unit-variance smooth noise): anatomy and global signal
  differ between participants, which is what makes cross-participant decoding hard.
* ``phi_{p,k}`` is cluster k, a raised cosine 0.5 (1 + cos(pi r / R_k)) of the
  distance r to its centre, zero beyond the radius R_k, so the informative voxels are
  known exactly. Participant p's centre is the cluster's centre shifted by
  N(0, ``jitter`` mm) per axis (anatomical variability).
* ``a_{c,k}`` is the amplitude of cluster k in condition c (in units of the noise
  SD, times ``effect_size``), ``g_p`` = max(0, 1 + ``participant_variability``
  N(0, 1)) the participant's gain.
* ``h(t)`` is 1 for beta maps of whole trials; in the time-slice mode (thesis 6.4.3)
  it is the response of the canonical double-gamma HRF (SPM: peak 6 s, undershoot
  16 s, ratio 1/6) to a block of ``block_duration`` s starting at 0, normalised to
  peak 1 and sampled at the slice centres ``time_slices``.

Designs:

``"buttonpress"`` (NC 4.1, thesis 6.3)
    12 participants x 4 runs x conditions "left"/"right". A left-hand press raises
    the right hand-motor/somatosensory cortex (MNI +38, -24, 56; R = 14 mm) and the
    left anterior cerebellum (-22, -52, -24; R = 10 mm), a right-hand press the
    mirror clusters: localised bilateral clusters. A midline SMA cluster
    (0, -4, 60; R = 10 mm) is active equally in both conditions and carries no
    information.
``"emotion"`` (thesis 6.4)
    6 participants x 8 trials x conditions joy/anger/disgust/fear/sadness; 60 small
    clusters (R = 6 mm) at random in-mask centres, each with an independent N(0, 1)
    amplitude per emotion: many small clusters distributed over the brain, every
    pair of emotions differing in all of them.

The truth (``truth``) is the set of voxels where the conditions differ for at least
one participant; ``effects`` holds the participant-free patterns sum_k a_{c,k}
phi_k (one row per condition), from which the truth of any pair of conditions
follows (``truth_for``).

The default grid is the MNI152 brain mask at 4 mm (:func:`mni152_mask`, 29 398
voxels); pass a coarser :class:`~sfmlearn.imaging.volumes.VolumeMask` (e.g.
``downsample_mask(mni152_mask(), 1)``, 8 mm) for faster runs. Cluster centres are MNI
millimetres, so a user mask must be in MNI space.
"""

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.ndimage import gaussian_filter
from scipy.stats import gamma
from sklearn.utils import check_random_state

from ..exceptions import DataValidationError
from ..outputs.atomic import save_nifti, write_csv, write_json
from .volumes import VolumeMask

__all__ = ["DESIGNS", "SimulatedFMRI", "block_response", "mni152_mask", "simulate_fmri"]

#: Bundled MNI152 brain mask (see imaging/data/README.md for its provenance).
BUNDLED_MASK = "mni152_brain_mask_4mm.nii.gz"
BUNDLED_RESOLUTION = 4

#: Default slice centres (s) of thesis 6.4.3: one pre-, five intra-, three post-trial.
THESIS_TIME_SLICES = (-2.0, 2.0, 6.0, 10.0, 14.0, 18.0, 22.0, 26.0, 30.0)

_BUTTONPRESS_CLUSTERS = (
    # name, centre (MNI mm), radius (mm), amplitude in (left, right)
    ("right hand motor cortex", (38.0, -24.0, 56.0), 14.0, (1.0, 0.0)),
    ("left cerebellum", (-22.0, -52.0, -24.0), 10.0, (1.0, 0.0)),
    ("left hand motor cortex", (-38.0, -24.0, 56.0), 14.0, (0.0, 1.0)),
    ("right cerebellum", (22.0, -52.0, -24.0), 10.0, (0.0, 1.0)),
    ("SMA (both conditions)", (0.0, -4.0, 60.0), 10.0, (1.0, 1.0)),
)

#: Defaults of every design; any of them can be overridden in :func:`simulate_fmri`.
DESIGNS = {
    "buttonpress": {"n_participants": 12, "n_runs": 4, "conditions": ("left", "right"),
                    "effect_size": 2.5, "n_clusters": None, "cluster_radius": None},
    "emotion": {"n_participants": 6, "n_runs": 8,
                "conditions": ("joy", "anger", "disgust", "fear", "sadness"),
                "effect_size": 1.5, "n_clusters": 60, "cluster_radius": 6.0},
}


def mni152_mask(resolution=BUNDLED_RESOLUTION):
    """The MNI152 (ICBM 2009a) brain mask as a :class:`VolumeMask`.

    ``resolution=4`` (mm) reads the mask bundled with sfmlearn, which is
    ``nilearn.datasets.load_mni152_brain_mask(resolution=4)`` of nilearn 0.14.1
    (bundled template, threshold 0.2; 50 x 59 x 48 voxels, 29 398 inside) saved as
    uint8 -- see ``imaging/data/README.md``. Other resolutions come from nilearn's
    bundled template (no download) and need nilearn: ``pip install sfmlearn[neuro]``.

    Parameters
    ----------
    resolution : int, default=4
        Voxel size in mm.

    Returns
    -------
    VolumeMask
        The brain mask.

    Examples
    --------
    >>> from sfmlearn.imaging.simulate import mni152_mask
    >>> mask = mni152_mask()
    >>> mask.shape, mask.n_voxels
    ((50, 59, 48), 29398)
    """
    if resolution == BUNDLED_RESOLUTION:
        source = resources.files("sfmlearn.imaging") / "data" / BUNDLED_MASK
        with resources.as_file(source) as path:
            return VolumeMask.load(path)
    try:
        from nilearn.datasets import load_mni152_brain_mask
    except ImportError as exc:
        raise DataValidationError(
            f"an MNI152 mask at {resolution} mm needs nilearn (pip install sfmlearn[neuro]); "
            f"without it use resolution={BUNDLED_RESOLUTION} (bundled) and downsample_mask.") from exc
    return VolumeMask.load(load_mni152_brain_mask(resolution=resolution))


def block_response(times, duration=20.0):
    """Canonical double-gamma HRF response to a block [0, ``duration``] s, peak 1 (thesis 6.4.3).

    h(t) = G(t; 6) - G(t; 16) / 6 with G the gamma density of unit scale (SPM's
    canonical HRF); the block response is the integral of h over the block, computed
    from the gamma CDFs, and divided by its maximum over [0, duration + 32] s.

    Parameters
    ----------
    times : array-like
        Seconds from the block's onset.
    duration : float, default=20.0
        Block length in seconds.

    Returns
    -------
    ndarray
        The response at ``times`` (maximum 1).

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.imaging.simulate import block_response
    >>> block_response(np.array([0.0, 5.0, 10.0, 20.0, 30.0])).round(3)
    array([ 0.   ,  0.403,  0.97 ,  0.901, -0.096])
    """
    def integral(t):
        t = np.maximum(t, 0.0)
        return gamma.cdf(t, 6) - gamma.cdf(t, 16) / 6.0

    def response(t):
        t = np.asarray(t, dtype=float)
        return integral(t) - integral(t - duration)

    peak = response(np.linspace(0.0, duration + 32.0, 2001)).max()
    return response(times) / peak


@dataclass
class SimulatedFMRI:
    """Simulated beta maps: matrix, design table, mask and the truth.

    Maps in the mask's voxel order; participants are numbered 1..P, runs 1..R.

    Parameters
    ----------
    X : ndarray of shape (n_maps, n_voxels)
        The beta maps.
    labels, participants, runs : ndarray of shape (n_maps,)
        Condition name, participant and run of every map.
    times : ndarray of shape (n_maps,) or None
        Slice centre (s) of every map, with time slices.
    mask : VolumeMask
        The grid.
    truth : ndarray of bool of shape (n_voxels,)
        The informative voxels.
    effects : ndarray of shape (n_conditions, n_voxels)
        The participant-free condition patterns.
    conditions : tuple of str
        The condition names.
    clusters : list of dict
        Name, MNI centre, radius and amplitudes of every cluster.
    params : dict
        Every parameter of the simulation.

    Examples
    --------
    >>> from sfmlearn.imaging.simulate import simulate_fmri
    >>> sim = simulate_fmri(n_participants=2, n_runs=2, random_state=0)   # button press, 4 mm MNI
    >>> sim.X.shape, list(sim.conditions), int(sim.truth.sum())
    ((8, 29398), ['left', 'right'], 666)
    """

    X: np.ndarray
    labels: np.ndarray
    participants: np.ndarray
    runs: np.ndarray
    times: np.ndarray | None
    mask: VolumeMask
    truth: np.ndarray
    effects: np.ndarray
    conditions: tuple
    clusters: list = field(repr=False)
    params: dict = field(repr=False)

    @property
    def truth_fraction(self):
        return float(self.truth.mean())

    def truth_for(self, first, second):
        """Voxels where conditions ``first`` and ``second`` differ (participant-free pattern)."""
        a, b = (self.conditions.index(c) for c in (first, second))
        return self.effects[a] != self.effects[b]

    def table(self):
        """One row per map: label, participant, run (and time)."""
        columns = {"label": self.labels, "participant": self.participants, "run": self.runs}
        if self.times is not None:
            columns["time"] = self.times
        return pd.DataFrame(columns)

    def save(self, directory):
        """Write the data as a user would have them; return the path of ``samples.csv``.

        ``betas/sub-PP_run-RR_COND[_tTTs].nii.gz`` (one float32 3-D image per map),
        ``mask.nii.gz``, ``truth.nii.gz`` (1 = informative), ``samples.csv`` (columns
        image -- relative to the directory --, label, participant, run[, time]) and
        ``simulation.json`` (parameters, clusters, truth fraction).
        """
        directory = Path(directory)
        (directory / "betas").mkdir(parents=True, exist_ok=True)
        table = self.table()
        names = [f"sub-{p:02d}_run-{r:02d}_{c}" for p, r, c in
                 zip(self.participants, self.runs, self.labels)]
        if self.times is not None:
            names = [f"{n}_t{t:+05.1f}s" for n, t in zip(names, self.times)]
        table.insert(0, "image", [f"betas/{n}.nii.gz" for n in names])
        for row, path in enumerate(table["image"]):
            save_nifti(self.mask.inverse_transform(self.X[row]), directory / path)
        save_nifti(self.mask.image(), directory / "mask.nii.gz")
        save_nifti(self.mask.inverse_transform(self.truth.astype(np.uint8), dtype=np.uint8),
                   directory / "truth.nii.gz")
        write_csv(table, directory / "samples.csv", index=False)
        record = {"params": self.params, "clusters": self.clusters,
                  "n_voxels": self.mask.n_voxels, "n_informative": int(self.truth.sum()),
                  "truth_fraction": self.truth_fraction}
        write_json(directory / "simulation.json", record)
        return directory / "samples.csv"


def simulate_fmri(design="buttonpress", *, mask=None, n_participants=None, n_runs=None,
                  conditions=None, effect_size=None, noise=1.0, participant_noise=0.5,
                  participant_variability=0.3, jitter=2.0, fwhm=8.0, n_clusters=None,
                  cluster_radius=None, time_slices=None, block_duration=20.0,
                  random_state=None):
    """Simulate multi-participant beta maps with known informative voxels.

    Parameters
    ----------
    design : {"buttonpress", "emotion"}
        Localised bilateral clusters (NC 4.1) or many small distributed clusters
        (thesis 6.4); sets the defaults of the parameters left at None (``DESIGNS``).
    mask : VolumeMask, NIfTI path/image, or None
        The grid; None is :func:`mni152_mask` (4 mm). Must be in MNI space.
    n_participants, n_runs : int
        Maps per condition = participants x runs (runs may stand for trials). None (for
        every parameter here) takes the design's default; 0 is an error.
    conditions : sequence of str
        Condition names; buttonpress needs exactly two.
    effect_size : float
        Cluster amplitude in units of the noise SD.
    noise, participant_noise : float
        SD of the per-map noise and of the participant maps b_p.
    participant_variability : float
        SD of the participant gain g_p around 1.
    jitter : float
        SD (mm) of the per-participant, per-cluster shift of cluster centres.
    fwhm : float
        Smoothing of the noise (mm); 0 for white noise.
    n_clusters, cluster_radius : int, float
        Emotion design: number and radius (mm) of the random clusters.
    time_slices : sequence of float, "thesis", or None
        Time-slice mode (thesis 6.4.3): one map per trial and slice centre (s);
        "thesis" = -2, 2, ..., 30 s. None: one beta map per trial.
    block_duration : float
        Length (s) of the trial block in the time-slice mode (thesis: 20 s).
    random_state : int, RandomState or None

    Returns
    -------
    SimulatedFMRI

    Examples
    --------
    >>> from sfmlearn.imaging.simulate import simulate_fmri
    >>> sim = simulate_fmri(n_participants=2, n_runs=2, random_state=0)   # button press, 4 mm MNI
    >>> sim.X.shape, sorted(set(sim.participants.tolist()))
    ((8, 29398), [1, 2])
    """
    if design not in DESIGNS:
        raise DataValidationError(f"design must be one of {sorted(DESIGNS)}; got {design!r}.")
    defaults = DESIGNS[design]

    def given(value, name):  # None means the design's default; 0 or () is a value (and an error)
        return defaults[name] if value is None else value

    n_participants = _positive_int(given(n_participants, "n_participants"), "n_participants")
    n_runs = _positive_int(given(n_runs, "n_runs"), "n_runs")
    conditions = _condition_names(given(conditions, "conditions"))
    if design == "buttonpress" and len(conditions) != 2:
        raise DataValidationError("the buttonpress design has exactly two conditions (left, right).")
    effect_size = defaults["effect_size"] if effect_size is None else effect_size
    for value, name in ((effect_size, "effect_size"), (noise, "noise"),
                        (participant_noise, "participant_noise"),
                        (participant_variability, "participant_variability"), (jitter, "jitter"),
                        (fwhm, "fwhm")):
        if not (np.isfinite(value) and value >= 0):
            raise DataValidationError(f"{name} must be a finite non-negative number; got {value!r}.")
    times = _time_slices(time_slices)
    mask = mni152_mask() if mask is None else VolumeMask.load(mask)
    rng = check_random_state(random_state)

    if design == "buttonpress":
        clusters = [{"name": n, "centre": list(c), "radius": r, "amplitudes": list(a)}
                    for n, c, r, a in _BUTTONPRESS_CLUSTERS]
    else:
        radius = given(cluster_radius, "cluster_radius")
        if not (np.isfinite(radius) and radius > 0):
            raise DataValidationError(f"cluster_radius must be a positive number of mm; got {radius!r}.")
        clusters = _random_clusters(
            mask, _positive_int(given(n_clusters, "n_clusters"), "n_clusters"), float(radius),
            len(conditions), rng)
    amplitudes = effect_size * np.array([c["amplitudes"] for c in clusters])  # (k, n_conditions)

    coords = mask.coordinates()
    template = np.array([_profile(coords, c["centre"], c["radius"]) for c in clusters])
    _check_clusters_inside(template, clusters)
    effects = amplitudes.T @ template  # (n_conditions, n_voxels)

    gains = np.maximum(0.0, 1.0 + participant_variability * rng.standard_normal(n_participants))
    smooth = _SmoothNoise(mask, fwhm)
    slices = [None] if times is None else list(times)
    response = np.ones(1) if times is None else block_response(times, block_duration)
    n_maps = n_participants * n_runs * len(conditions) * len(slices)
    X = np.empty((n_maps, mask.n_voxels))
    design_rows = []
    truth = np.zeros(mask.n_voxels, dtype=bool)
    row = 0
    for p in range(n_participants):
        shifted = np.array([
            _profile(coords, np.asarray(c["centre"]) + jitter * rng.standard_normal(3), c["radius"])
            for c in clusters])
        patterns = gains[p] * (amplitudes.T @ shifted)  # (n_conditions, n_voxels)
        truth |= np.any(patterns != patterns[0], axis=0)
        baseline = participant_noise * smooth.sample(rng)
        for r in range(n_runs):
            for c, condition in enumerate(conditions):
                for s, t in enumerate(slices):
                    X[row] = baseline + response[s] * patterns[c] + noise * smooth.sample(rng)
                    design_rows.append((condition, p + 1, r + 1, t))
                    row += 1
    labels, participants, runs, map_times = zip(*design_rows)
    params = {"design": design, "n_participants": n_participants, "n_runs": n_runs,
              "conditions": list(conditions), "effect_size": effect_size, "noise": noise,
              "participant_noise": participant_noise,
              "participant_variability": participant_variability, "jitter": jitter,
              "fwhm": fwhm, "time_slices": None if times is None else list(times),
              "block_duration": block_duration,
              "random_state": random_state if isinstance(random_state, (int, type(None))) else None,
              "voxel_size": mask.voxel_size.tolist()}
    return SimulatedFMRI(
        X=X, labels=np.array(labels, dtype=object), participants=np.array(participants),
        runs=np.array(runs), times=None if times is None else np.array(map_times, dtype=float),
        mask=mask, truth=truth, effects=effects, conditions=conditions, clusters=clusters,
        params=params)


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise DataValidationError(f"{name} must be a positive integer; got {value!r}.")
    return int(value)


def _condition_names(conditions):
    """The conditions as a tuple of at least two distinct names.

    A single string is refused: read as a sequence it would be one condition per letter.
    """
    if isinstance(conditions, (str, bytes)):
        raise DataValidationError(f"conditions must be a sequence of names, e.g. ('joy', 'anger'); got the "
                                  f"single string {conditions!r}, which would be one condition per letter.")
    names = tuple(str(c) for c in conditions)
    if len(set(names)) != len(names) or len(names) < 2:
        raise DataValidationError(f"conditions must be at least two distinct names; got {names}.")
    return names


def _time_slices(time_slices):
    if time_slices is None:
        return None
    if isinstance(time_slices, str):
        if time_slices != "thesis":
            raise DataValidationError(f"time_slices must be a sequence of times or 'thesis'; got {time_slices!r}.")
        return np.array(THESIS_TIME_SLICES)
    times = np.asarray(time_slices, dtype=float).ravel()
    if times.size == 0 or not np.all(np.isfinite(times)) or np.unique(times).size != times.size:
        raise DataValidationError("time_slices must be distinct finite times in seconds.")
    return times


def _profile(coords, centre, radius):
    """Raised cosine 0.5 (1 + cos(pi r / R)) of the distance r to ``centre``; 0 beyond R."""
    r = np.linalg.norm(coords - np.asarray(centre, dtype=float), axis=1)
    return np.where(r < radius, 0.5 * (1.0 + np.cos(np.pi * np.minimum(r / radius, 1.0))), 0.0)


def _check_clusters_inside(template, clusters):
    empty = [c["name"] for c, t in zip(clusters, template) if not t.any()]
    if empty:
        raise DataValidationError(
            f"clusters {empty} have no voxel inside the mask: the mask must be a brain mask in "
            "MNI space (e.g. sfmlearn.imaging.simulate.mni152_mask()).")


def _random_clusters(mask, n_clusters, radius, n_conditions, rng):
    """Centres at random in-mask voxels (without repetition), N(0, 1) amplitudes per condition."""
    coords = mask.coordinates()
    if n_clusters > coords.shape[0]:
        raise DataValidationError(f"n_clusters={n_clusters} exceeds the {coords.shape[0]} mask voxels.")
    centres = coords[rng.choice(coords.shape[0], n_clusters, replace=False)]
    return [{"name": f"cluster {k + 1}", "centre": centre.tolist(), "radius": radius,
             "amplitudes": rng.standard_normal(n_conditions).tolist()}
            for k, centre in enumerate(centres)]


class _SmoothNoise:
    """Unit-variance Gaussian noise smoothed with a Gaussian kernel of ``fwhm`` mm, in-mask."""

    def __init__(self, mask, fwhm):
        self.mask = mask
        sigma = fwhm / np.sqrt(8.0 * np.log(2.0)) / mask.voxel_size
        self.sigma = np.where(np.array(mask.shape) > 1, sigma, 0.0)
        delta = np.zeros(tuple(int(2 * np.ceil(4 * s) + 1) for s in self.sigma))
        delta[tuple(n // 2 for n in delta.shape)] = 1.0
        kernel = gaussian_filter(delta, self.sigma, mode="constant")
        self.scale = 1.0 / np.sqrt(np.sum(kernel ** 2))

    def sample(self, rng):
        white = rng.standard_normal(self.mask.shape)
        return self.scale * gaussian_filter(white, self.sigma, mode="reflect")[self.mask.data]
