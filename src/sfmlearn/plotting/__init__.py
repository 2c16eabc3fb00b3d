"""Matplotlib figures used by the experiments, the CLI and the HTML report.

One module per topic; every function takes data (or fitted objects) and returns a
``matplotlib.figure.Figure`` without showing it, so callers decide where it goes.
"""
