"""The papers' figures, drawn by the experiments that reproduce them.

One module per topic (the SFM experiments, the theory chapter, the fMRI sweeps, the
leukemia rSFM, the vignetting correction, ours against the published numbers); every
function takes an experiment's table and returns a ``matplotlib.figure.Figure`` without
showing it. Figures that users' analyses draw (brain maps, the softness path, the
informative-fraction curve) live in :mod:`sfmlearn.plotting`.
"""
