"""Loaders of the UCI benchmark tables of ML05 Table 1 (Neumann, Schnoerr, Steidl 2005).

Every dataset is a binary problem with ``target`` 1 for the class named second in
``target_names`` (the disease/event/positive class) and 0 for the other. Missing values
(WPBC: 4, Wisconsin breast cancer: 16, Cleveland: 6) are handled by one documented
option, ``missing``, whose default ("drop") reproduces the sample counts of ML05 Table 1.
"""

import numpy as np

from ._arguments import FLAG, checked
from ._base import load_arrays, tabular_result

__all__ = ["load_uci", "UCI_NAMES", "MISSING_OPTIONS"]

MISSING_OPTIONS = ("drop", "impute_median", "keep")


def _equals(value):
    """Target 1 where the file's class equals ``value``; every sample kept."""
    return lambda arrays: ((arrays["y"] == value).astype(np.int64), None)


def _wpbc_endpoint(months):
    """Recurrence within ``months`` (ML05's wpbc24 / wpbc60).

    Positive: recurred (R) at time <= months. Negative: no recurrence during the first
    ``months`` (time > months, whether or not the patient recurred later). Patients
    without recurrence followed for at most ``months`` (censored before the endpoint)
    are excluded.
    """
    def encode(arrays):
        positive = (arrays["y"] == "R") & (arrays["time"] <= months)
        return positive.astype(np.int64), positive | (arrays["time"] > months)
    return encode


# name -> (packaged file stem, encoder arrays -> (target, samples kept or None),
#          target names, extra per-sample fields: Bunch key -> array in the file)
_SPECS = {
    "wpbc": ("uci_wpbc", _equals("R"), ["nonrecur", "recur"], {"ids": "ids", "time": "time"}),
    "wpbc24": ("uci_wpbc", _wpbc_endpoint(24),
               ["no recurrence within 24 months", "recurrence within 24 months"],
               {"ids": "ids", "time": "time"}),
    "wpbc60": ("uci_wpbc", _wpbc_endpoint(60),
               ["no recurrence within 60 months", "recurrence within 60 months"],
               {"ids": "ids", "time": "time"}),
    "liver": ("uci_liver_bupa", _equals(2), ["selector 1", "selector 2"], {}),
    "cleveland": ("uci_heart_cleveland", lambda arrays: ((arrays["y"] > 0).astype(np.int64), None),
                  ["no disease (num = 0)", "disease (num > 0)"], {"num": "y"}),
    "ionosphere": ("uci_ionosphere", _equals("g"), ["bad", "good"], {}),
    "pima": ("uci_pima", _equals(1), ["tested negative", "tested positive"], {}),
    "breast_cancer_wisconsin": ("uci_breast_cancer_wisconsin", _equals(4),
                                ["benign", "malignant"], {"ids": "ids"}),
    "sonar": ("uci_sonar", _equals("M"), ["rock", "mine"], {}),
    "musk1": ("uci_musk1", _equals(1), ["non-musk", "musk"],
              {"groups": "molecule", "conformations": "conformation"}),
}

UCI_NAMES = tuple(_SPECS)


def _handle_missing(X, missing):
    """(X, kept-row mask) after applying the ``missing`` policy to NaN entries."""
    keep = np.ones(X.shape[0], dtype=bool)
    absent = np.isnan(X)
    if not absent.any() or missing == "keep":
        return X, keep
    if missing == "drop":
        return X, ~absent.any(axis=1)
    medians = np.nanmedian(X, axis=0)
    return np.where(absent, medians, X), keep


@checked(as_frame=FLAG, return_X_y=FLAG)
def load_uci(name, *, missing="drop", as_frame=False, return_X_y=False):
    """A UCI benchmark of ML05 Table 1 as a scikit-learn Bunch.

    Names: ``"wpbc"`` (Wisconsin prognostic breast cancer: recurrence N/R), ``"wpbc24"``
    and ``"wpbc60"`` (ML05's endpoints: recurrence within 24 / 60 months, see
    ``DESCR``), ``"liver"`` (BUPA; the "selector" field as class -- a caveat, see
    ``DESCR``), ``"cleveland"`` (heart disease, binary: num = 0 vs num > 0),
    ``"ionosphere"``, ``"pima"``, ``"breast_cancer_wisconsin"`` (original, 9 features),
    ``"sonar"`` and ``"musk1"`` (conformations; molecule names as ``groups``).

    Parameters
    ----------
    name : str
        One of :data:`UCI_NAMES`.
    missing : {"drop", "impute_median", "keep"}, default="drop"
        What to do with the missing values of WPBC (4, lymph-node status), Wisconsin
        breast cancer (16, bare nuclei) and Cleveland (6: ca 4, thal 2); the other sets
        have none. "drop" removes every sample with a missing value, which gives
        ML05 Table 1's sample counts (bcw 683, cleveland 297, wpbc24 155, wpbc60 110).
        "impute_median" fills each with the median of the observed values of its
        feature over the whole dataset -- convenient, but it uses every sample, test
        samples included; for honest cross-validation prefer "keep" and a
        ``sklearn.impute.SimpleImputer`` inside the pipeline. "keep" leaves NaN.
    as_frame : bool, default=False
        Return ``data`` as a DataFrame with the feature names as columns, ``target``
        as a Series, and ``frame`` holding both.
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.

    Returns
    -------
    Bunch with ``data`` (float64), ``target`` (int 0/1), ``feature_names``,
    ``target_names``, ``DESCR`` (source, citation, terms, caveats), ``frame`` (None
    unless ``as_frame``) and, where the file has them, ``ids`` (sample ids; WPBC and
    breast cancer), ``time`` (WPBC: months to recurrence or disease-free follow-up),
    ``num`` (Cleveland: the original 0-4 diagnosis), ``groups`` and ``conformations``
    (Musk1: molecule and conformation names; use ``groups`` with ``GroupKFold`` so
    conformations of one molecule never sit in both training and test data).

    Examples
    --------
    >>> from sfmlearn.datasets import load_uci
    >>> load_uci("liver").data.shape, load_uci("wpbc60").data.shape
    ((345, 6), (110, 32))
    """
    if name not in _SPECS:
        raise ValueError(f"unknown UCI dataset '{name}'; choose one of {', '.join(UCI_NAMES)}")
    if missing not in MISSING_OPTIONS:
        raise ValueError(f"missing must be one of {', '.join(MISSING_OPTIONS)}; got {missing!r}")
    stem, encode, target_names, extra_fields = _SPECS[name]
    arrays = load_arrays(f"{stem}.npz")
    X, keep = _handle_missing(arrays["X"].astype(np.float64), missing)
    y, in_cohort = encode(arrays)
    if in_cohort is not None:
        keep &= in_cohort
    X, y = X[keep], y[keep]
    extras = {field: arrays[key][keep] for field, key in extra_fields.items()}
    extras = {k: v.astype(object) if v.dtype.kind == "U" else v for k, v in extras.items()}
    names = arrays["feature_names"].astype(object)
    return tabular_result(X, y, names, target_names, stem, as_frame=as_frame,
                          return_X_y=return_X_y, **extras)
