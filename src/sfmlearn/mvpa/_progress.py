"""Progress of the MVPA loops over folds, permutations, slices and levels, under the
caller's time limit (:mod:`sfmlearn.utils.time_limit`)."""

from ..utils.time_limit import check_time_limit

__all__ = ["counted"]


def counted(items, progress, total=None, *, what="steps"):
    """Yield ``items``; after each one is processed, call ``progress(done, total)`` if given
    and, while items remain, check the time limit
    (:func:`~sfmlearn.utils.time_limit.check_time_limit`, which says "``done`` of
    ``total`` ``what``" once it has passed).

    ``total`` defaults to ``len(items)``; pass it for generators (joblib's
    ``return_as="generator"``), whose items arrive as the parallel jobs finish.
    """
    total = len(items) if total is None else total
    for done, item in enumerate(items, start=1):
        yield item
        if progress is not None:
            progress(done, total)
        if done < total:  # a finished loop is kept, whatever the time
            check_time_limit(f"{done} of {total} {what}")
