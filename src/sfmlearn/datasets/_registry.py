"""Named datasets for the command line (``sfmlearn select --dataset NAME``).

Each entry maps a name to a loader returning a Bunch with ``X_train``, ``y_train``,
``feature_names`` and, when the data come with an independent test split, ``X_test``
and ``y_test``; plus a one-line summary and citation for listings.
"""

from ._microarray import load_leukemia

__all__ = ["DATASETS", "load_named"]

DATASETS = {
    "leukemia": {
        "loader": load_leukemia,
        "summary": "Golub 1999 ALL/AML microarray, train 38 x 7129, test 34",
        "citation": "Golub et al., Science 286:531-537 (1999)",
    },
}


def load_named(name):
    """Load a named dataset as a Bunch with at least X_train, y_train, feature_names."""
    try:
        entry = DATASETS[name]
    except KeyError:
        raise ValueError(f"unknown dataset '{name}'; available: {', '.join(sorted(DATASETS))}") from None
    return entry["loader"]()
