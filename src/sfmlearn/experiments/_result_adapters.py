"""How a registered result is drawn and compared: thin adapters for :class:`~.registry.Result`.

The work is in the experiment modules and in ``experiments/figures/``; each adapter
imports its module only when called, so listing the registry loads no experiment.
"""

import importlib

import pandas as pd


class TheoryFigure:
    """A figure of thesis chapters 2-4 that runs its own simulation (:mod:`.theory_figures`):
    ``figure(table, context)`` draws it with the options of ``context`` it takes, and
    :meth:`options` names them, so a run says which options the figure ignores."""

    def __init__(self, stem):
        self.stem = stem

    def __call__(self, table, context):
        from .theory_figures import draw

        return draw(self.stem, quick=context.quick, random_state=context.random_state, n_jobs=context.n_jobs)

    def options(self):
        """The shared options (quick, random_state, n_jobs) the figure's simulation takes."""
        from .runner import accepted_options
        from .theory_figures import FIGURES

        return accepted_options(FIGURES[self.stem])


def theory_figure(stem):
    """The figure ``stem`` of :data:`.theory_figures.FIGURES` as a result's figure (:class:`TheoryFigure`)."""
    return TheoryFigure(stem)


def plot_from(figures_module, function_name, *args):
    """``draw(table, context)`` calling ``experiments.figures.<figures_module>.<function_name>(table, *args)``."""
    def draw(table, context):
        figures = importlib.import_module(f"{__package__}.figures.{figures_module}")
        return getattr(figures, function_name)(table, *args)
    return draw


def experiment_plot(function_name, *args):
    """A figure of the SFM experiments (:mod:`sfmlearn.experiments.figures.sfm_experiments`)."""
    return plot_from("sfm_experiments", function_name, *args)


def theory_plot(function_name):
    """A theory figure drawn from its table (:mod:`sfmlearn.experiments.figures.theory`)."""
    return plot_from("theory", function_name)


def fmri_plot(function_name):
    """An fMRI figure (:mod:`sfmlearn.experiments.figures.fmri_experiments`)."""
    return plot_from("fmri_experiments", function_name)


def vignetting_figure(table, context):
    from .vignetting import figure

    return figure(int(table["levels"].iloc[0]))


def basic_claims(table, result):
    """The statements of the papers' text (no published numbers): whether each holds."""
    from .basic_sweeps import claims

    rows = claims(table).rename(columns={"holds": "agrees"})
    rows["judged_by"] = "statement of the text"
    rows["cell"] = [f"{result.reference}: {claim}" for claim in rows["claim"]]
    return rows


def runtime_comparison(table, result):
    from .runtimes import comparison

    return comparison(table)


def rows_where(table, where):
    mask = pd.Series(True, index=table.index)
    for column, values in where.items():
        mask &= table[column].isin((values,) if isinstance(values, str) else values)
    return mask


def compare_only(show=None, **where):
    """Compare only the rows whose ``column`` is one of the given values (a str or a tuple);
    ``show`` (a dict of the same form) adds rows of ours without a published counterpart."""
    def compare_rows(table, result):
        from .runner import compare

        rows = table[rows_where(table, where)]
        return compare(rows, result, show=None if show is None else rows_where(rows, show))
    return compare_rows


def leukemia_figure(table, context):
    from .leukemia_repetitive import figure

    return figure(table)
