"""Shared helpers of the dataset loaders: where packaged files live, Bunch assembly."""

from importlib import resources

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

__all__ = ["data_path", "read_descr", "load_arrays", "frame_bunch", "make_bunch"]


def data_path(name):
    """Path of a file shipped in ``sfmlearn/datasets/data``."""
    return resources.files("sfmlearn.datasets") / "data" / name


def load_arrays(name):
    """All arrays of a packaged ``.npz`` file as a dict (loaded eagerly, file closed)."""
    with np.load(data_path(name), allow_pickle=False) as f:
        return {key: f[key] for key in f.files}


def read_descr(name):
    """The DESCR text (source, citation, terms) of a shipped dataset."""
    return (resources.files("sfmlearn.datasets") / "descr" / f"{name}.rst").read_text(encoding="utf-8")


def frame_bunch(X, y, feature_names, target_name="target"):
    """(DataFrame of features, Series of labels, combined frame) for ``as_frame=True``."""
    data = pd.DataFrame(X, columns=pd.Index(feature_names, dtype=object))
    target = pd.Series(np.asarray(y), name=target_name)
    return data, target, pd.concat([data, target], axis=1)


def make_bunch(**fields):
    return Bunch(**fields)


def tabular_result(X, y, feature_names, target_names, descr, *, as_frame, return_X_y, **extras):
    """The common return of the table loaders: ``(X, y)`` or a Bunch with ``data``,
    ``target``, ``frame`` (pandas when ``as_frame``), names, DESCR and extra fields."""
    frame = None
    if as_frame:
        X, y, frame = frame_bunch(X, y, feature_names)
    if return_X_y:
        return X, y
    return make_bunch(data=X, target=y, frame=frame, feature_names=feature_names,
                      target_names=np.array(target_names, dtype=object),
                      DESCR=read_descr(descr), **extras)
