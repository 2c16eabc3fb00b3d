"""The gallery in the order of the user guide (``within_subsection_order``).

An example not listed here is shown after the listed ones, by file name.
"""

ORDER = [
    "plot_leukemia_chance.py", "plot_weston_comparison.py", "plot_c_sweep.py", "plot_budget_frontier.py",
    "plot_frontier_shipped_sets.py",
    "plot_repetitive_sfm.py", "plot_separability.py", "plot_loo_pitfalls.py",
    "plot_pipeline_gridsearch.py", "plot_haxby_face_house.py", "plot_marker_panel.py",
    "plot_illumination_correction.py", "plot_psvm_redundancy.py", "plot_dask.py",
]


class GuideOrder:
    """Sort key of sphinx-gallery: position in ORDER, then file name."""

    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __call__(self, filename):
        return (ORDER.index(filename) if filename in ORDER else len(ORDER), filename)

    def __repr__(self):  # sphinx-gallery keys the build environment on it
        return f"<{type(self).__name__}>"
