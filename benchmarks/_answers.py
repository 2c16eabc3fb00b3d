"""The answers of default fits as named arrays, and how two sets of them differ.

``bench_answers.py`` runs :func:`record` in a child process per revision (so each uses
its own ``sfmlearn``) and compares the saved arrays with :func:`compare`. Only names
that every revision has are used, so an earlier revision can be the reference.
"""

import numpy as np
import scipy.sparse as sp

#: The fits whose answers are recorded: name -> the fit, given the child's ``sfmlearn``
#: module and ``X, y``, with the package's defaults but a fixed seed.
FITS = {
    "cv": lambda sfm, X, y: sfm.SupportFeatureMachineCV(random_state=0).fit(X, y),
    "soft": lambda sfm, X, y: sfm.SupportFeatureMachine(C=1.0, class_weight="balanced").fit(X, y),
    "hard": lambda sfm, X, y: sfm.SupportFeatureMachine().fit(X, y),
    "path": lambda sfm, X, y: sfm.sfm_path(X, y),
    "repetitive": lambda sfm, X, y: sfm.RepetitiveSFM(max_repetitions=10).fit(X, y),
}
#: Relative tolerance of "equal up to rounding".
RTOL = 1e-9
#: Arrays named per fit that differs.
SHOWN = 4
#: Words that name a measured time, not an answer (``history_["seconds"]``, ``mean_fit_time``).
TIMINGS = ("seconds", "time")


def fitted_arrays(fitted, X):
    """Every numeric array a fit holds, by name: its public attributes (trailing ``_`` for
    estimators, any for result objects), the numeric columns of dicts such as
    ``cv_results_``, lists of arrays flattened with their lengths, sparse matrices made
    dense, and the decisions and probabilities on the training samples; measured times
    (:data:`TIMINGS`) are left out."""
    arrays = {}
    for name, value in vars(fitted).items():
        if name.startswith("_"):
            continue
        for key, array in _numeric(name, value):
            if not any(word in key for word in TIMINGS):
                arrays[key] = array
    for method in ("decision_function", "predict_proba"):
        try:
            arrays[f"{method}(X)"] = np.asarray(getattr(fitted, method)(X), dtype=float)
        except Exception:  # not every fit has both (a path, an estimator without a sigmoid)
            pass
    return arrays


def _numeric(name, value):
    if sp.issparse(value):
        yield name, value.toarray()
    elif isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        yield name, value
    elif isinstance(value, (bool, int, float, np.number)):
        yield name, np.asarray(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _numeric(f"{name}[{key}]", item)
    elif isinstance(value, (list, tuple)) and value and all(isinstance(v, np.ndarray) for v in value):
        if all(v.dtype.kind in "biuf" for v in value):
            yield f"{name} (lengths)", np.array([v.size for v in value])
            yield name, np.concatenate([v.ravel() for v in value])


def record(X, y, fits, path):
    """Fit each of ``fits`` (names of :data:`FITS`) to ``X, y`` and save every array to
    the ``.npz`` file ``path`` as ``"fit/array"``; a fit that raises is saved as its
    error text."""
    import warnings

    import sfmlearn

    saved = {}
    for fit in fits:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                fitted = FITS[fit](sfmlearn, X, y)
            except Exception as error:
                saved[f"{fit}/error"] = np.array(f"{type(error).__name__}: {error}")
                continue
        for key, array in fitted_arrays(fitted, X).items():
            saved[f"{fit}/{key}"] = array
    np.savez(path, **saved)


def compare(this, reference):
    """How the arrays ``this`` differ from ``reference`` (both name -> array), per fit:
    fit -> (verdict, details). The verdict is "identical" (same bits in every array both
    have), "equal" (within :data:`RTOL`), "differs" or "failed"; the details name the
    arrays behind it and the largest difference."""
    by_fit = {}
    for key in sorted(set(this) | set(reference)):
        by_fit.setdefault(key.split("/", 1)[0], []).append(key)
    verdicts = {}
    for fit, keys in by_fit.items():
        errors = [f"{side}: {arrays[key]}" for side, arrays in (("this tree", this), ("reference", reference))
                  for key in keys if key.endswith("/error") and key in arrays]
        if errors:
            verdicts[fit] = ("failed", "; ".join(errors))
            continue
        shared = [key for key in keys if key in this and key in reference]
        if not shared:
            verdicts[fit] = ("differs", "no array in common (renamed attributes?)")
            continue
        changed = [key for key in shared if not _same_bits(this[key], reference[key])]
        if not changed:
            verdicts[fit] = ("identical", _count(len(shared)))
            continue
        apart = [(key, _difference(this[key], reference[key])) for key in changed]
        worst = [f"{key.split('/', 1)[1]} ({gap})" for key, (close, gap) in apart if not close]
        if worst:
            more = f" and {len(worst) - SHOWN} more arrays" if len(worst) > SHOWN else ""
            verdicts[fit] = ("differs", ", ".join(worst[:SHOWN]) + more)
        else:
            verdicts[fit] = ("equal", f"{len(changed)} of {_count(len(shared))} within rounding: "
                             + ", ".join(f"{key.split('/', 1)[1]} ({gap})" for key, (_, gap) in apart[:3]))
    return verdicts


def _count(n):
    return f"{n} array" + ("" if n == 1 else "s")


def _same_bits(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _difference(a, b):
    """(equal within RTOL, the difference in words)."""
    if a.shape != b.shape:
        return False, f"shape {a.shape} against {b.shape}"
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    apart = (a != b) & ~(np.isnan(a) & np.isnan(b))
    if not (np.isfinite(a[apart]).all() and np.isfinite(b[apart]).all()):
        return False, "NaN or infinity in other places"
    gap = float(np.max(np.abs(a[apart] - b[apart]), initial=0.0))
    finite = np.isfinite(b)
    scale = float(np.max(np.abs(b[finite]), initial=0.0))
    return gap <= RTOL * max(scale, 1.0), f"max |difference| {gap:.3g} at scale {scale:.3g}"
