"""Figures of the repetitive SFM (NC Fig. 4, thesis Figs. 6.3 and 6.9)."""

import numpy as np
from matplotlib.figure import Figure

__all__ = ["informative_fraction_figure"]


def informative_fraction_figure(result):
    """Subset sizes and the SVM error curve with its sigmoid fit, like NC Fig. 4 a, d.

    Parameters
    ----------
    result : InformativeFraction
        From :func:`~sfmlearn.estimate_informative_fraction` (or
        ``RepetitiveSFM(informative_every=k).fit(...).informative_``).

    Returns
    -------
    matplotlib.figure.Figure
        Left: the size of every subset, sorted by size, against the percentage of
        features discarded before it, one line per fold. Right: the test error of the
        soft SVM on the remaining features, each fold resampled piecewise constant
        (thin), their mean or median (thick), the fitted sigmoids (the one used dashed,
        the other dotted), the tangent at the inflexion (dash-dotted), chance, and the
        estimate where the tangent meets chance (dot; the reason is printed instead
        when no estimate could be made).

    Examples
    --------
    >>> from sfmlearn.datasets import make_basic
    >>> X, y = make_basic(40, 100, 20, class_distance=2.0, random_state=0)   # 20 of 100 informative
    >>> from sfmlearn import estimate_informative_fraction
    >>> result = estimate_informative_fraction(X, y, informative_every=2, cv=3, inner_cv=3, random_state=0)
    >>> from sfmlearn.plotting.repetitive import informative_fraction_figure
    >>> figure = informative_fraction_figure(result)
    >>> len(figure.axes)
    2
    """
    fig = Figure(figsize=(11.0, 4.2), layout="constrained")
    sizes_ax, curve_ax = fig.subplots(1, 2)
    d = result.n_features

    for fold in result.folds:
        sizes = np.sort(fold["path"].sizes, kind="stable")
        if sizes.size == 0:  # the fold's first repetition already stopped: no subset to draw
            continue
        before = np.r_[0, np.cumsum(sizes)[:-1]]
        sizes_ax.plot(100 * before / d, sizes, drawstyle="steps-post", lw=0.8, alpha=0.6)
    sizes_ax.set_xlabel("discarded features [%]")
    sizes_ax.set_ylabel("features in the subset")
    sizes_ax.set_title("subsets sorted by size (one line per fold)")
    sizes_ax.set_xlim(0, 100)

    percent = 100 * result.fraction
    for curve in result.fold_curves:
        curve_ax.plot(percent, curve, color="0.75", lw=0.6)
    curve_ax.plot(percent, result.curve, color="k", lw=1.6, label=f"{result.aggregate} of the folds")
    for fit in (result.free, result.restricted):
        if fit.params is None:
            continue
        used = fit.kind == result.fit_used
        curve_ax.plot(percent, fit(result.fraction), ls="--" if used else ":",
                      color="C0" if used else "C1", label=f"{fit.kind} sigmoid" + (" (used)" if used else ""))
    curve_ax.axhline(result.chance, color="0.4", lw=0.8)
    if result.available:
        chosen = result.free if result.fit_used == "free" else result.restricted
        span = np.linspace(chosen.inflexion - 0.5 * (result.estimate - chosen.inflexion) - 0.02,
                           result.estimate, 50)
        curve_ax.plot(100 * span, chosen.tangent(span), ls="-.", color="C3", label="tangent at the inflexion")
        curve_ax.plot([100 * result.estimate], [result.chance], "o", color="C3")
        curve_ax.set_title(f"estimate: {100 * result.estimate:.1f} % informative")
    else:
        curve_ax.set_title("no estimate")
        curve_ax.text(0.02, 0.02, result.reason, transform=curve_ax.transAxes, fontsize="x-small",
                      wrap=True, va="bottom")
    curve_ax.set_xlabel("discarded features [%]")
    curve_ax.set_ylabel("test error of the SVM on the remaining features")
    curve_ax.set_xlim(0, 100)
    curve_ax.set_ylim(0, max(0.75, float(np.nanmax(result.fold_curves)) + 0.05))
    curve_ax.legend(loc="lower right", fontsize="small")
    return fig
