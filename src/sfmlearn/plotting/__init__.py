"""Matplotlib figures of users' analyses, used by the HTML report and the CLI.

One module per topic (brain maps, the softness path, the informative-fraction curve, the
marker panel's dot plot); every function takes data (or fitted objects) and returns a
``matplotlib.figure.Figure`` without showing it, so callers decide where it goes. The
papers' figures live beside the experiments that draw them
(:mod:`sfmlearn.experiments.figures`).
"""
