"""Progress of the MVPA loops over folds, permutations, slices and levels."""

__all__ = ["counted"]


def counted(items, progress, total=None):
    """Yield ``items``; after each one is processed, call ``progress(done, total)`` if given.

    ``total`` defaults to ``len(items)``; pass it for generators (joblib's
    ``return_as="generator"``), whose items arrive as the parallel jobs finish.
    """
    total = len(items) if total is None else total
    for done, item in enumerate(items, start=1):
        yield item
        if progress is not None:
            progress(done, total)
