"""Reproductions of the papers' tables and figures.

One module per result. Each exposes ``run(quick=False, ...) -> pandas.DataFrame`` in
tidy form with a ``published`` column wherever the paper gives a number, and can be run
as ``python -m sfmlearn.experiments.<module>``.
"""
