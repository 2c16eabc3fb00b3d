"""Sphinx configuration of the sfmlearn documentation site.

Build (warnings are errors, the gallery is executed):

    pip install -e ".[docs]"
    sphinx-build -W -b html docs docs/_build/html

``-D plot_gallery=0`` skips running the examples for a quick look at the text.
"""

import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import sfmlearn  # noqa: E402  (after the path set-up above)

# sphinx-gallery looks each name an example uses up under every parent package, so it
# asks sfmlearn for the names that moved to a subpackage and gets their FutureWarning;
# the examples themselves import from the new homes (a use of an old one still warns).
warnings.filterwarnings("ignore", message=r"sfmlearn\.\w+ moved to", category=FutureWarning,
                        module=r"sphinx_gallery\.backreferences")

project = "sfmlearn"
author = "sfmlearn developers"
copyright = "sfmlearn developers, BSD-3-Clause"
release = sfmlearn.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "numpydoc",
    "myst_parser",
    "sphinx.ext.mathjax",  # .. math:: in docstrings, $$ ... $$ in the guide
    "sphinx-mathjax-offline",  # ships MathJax and points mathjax_path at the copy: no CDN
    "sphinx_gallery.gen_gallery",
    "matplotlib.sphinxext.plot_directive",  # the geometry pictures of the user guide
    "cli_reference",
    "plain_formulas",  # |w_j|, mu_+ and coef_ in docstrings render as written
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "auto_examples/*.ipynb",
    "auto_examples/*.py",
    "auto_examples/*.zip",
    "auto_examples/*.json",
    "auto_examples/*.md5",
    "auto_examples/*.codeobj.json",
]

# --- API reference -------------------------------------------------------------------------
autosummary_generate = True
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "none"  # numpydoc's Parameters sections carry the types
numpydoc_show_class_members = False  # the class template lists the methods itself
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# numpydoc's own validation is a pytest test (tests/docs/test_docstrings.py) with an explicit
# TODO list, so the build stays about rendering.

# --- Markdown (the user guide and docs/results.md) ---------------------------------------
# Formulas are LaTeX: $...$ inline, $$...$$ or ```{math} displayed (amsmath environments
# such as align as they are). MathJax typesets them in the browser from the copy that
# sphinx-mathjax-offline puts into _static/mathjax, so the site renders without a network.
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath", "amsmath"]
myst_heading_anchors = 4  # GitHub-style #anchors, which docs/results.md links to

# --- formulas --------------------------------------------------------------------------------
# MathJax's SVG output draws every glyph as a path: no web fonts to fetch, which a page
# opened from the file system (file://) may not be allowed to load. sphinx-mathjax-offline
# sets mathjax_path to its CHTML build when it is set up, so setup() below picks the SVG
# build after it.
MATHJAX_PATH = "mathjax/tex-svg.js"

# --- intersphinx, offline-safe ---------------------------------------------------------------
# Each project lists its published inventory first and an empty local one second. With a
# network the links resolve; without one (CI here reaches only package registries) Sphinx
# falls back to the empty inventory, logs that at INFO level and the -W build stays green:
# the references then render as plain text instead of failing the build.
_OFFLINE = "_intersphinx/empty-objects.inv"
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", (None, _OFFLINE)),
    "numpy": ("https://numpy.org/doc/stable", (None, _OFFLINE)),
    "scipy": ("https://docs.scipy.org/doc/scipy", (None, _OFFLINE)),
    "sklearn": ("https://scikit-learn.org/stable", (None, _OFFLINE)),
    "nilearn": ("https://nilearn.github.io/stable", (None, _OFFLINE)),
    "nibabel": ("https://nipy.org/nibabel", (None, _OFFLINE)),
    "pandas": ("https://pandas.pydata.org/docs", (None, _OFFLINE)),
    "matplotlib": ("https://matplotlib.org/stable", (None, _OFFLINE)),
}
intersphinx_timeout = 5

# --- gallery -----------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",  # every plot_*.py is executed
    "within_subsection_order": "gallery_order.GuideOrder",  # the user guide's order
    "ignore_pattern": r"__init__\.py",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "matplotlib_animations": False,
    "min_reported_time": 0,
    # The computation-times page loads jQuery and DataTables from CDNs; the site is offline.
    "write_computation_times": False,
    "reference_url": {"sfmlearn": None},
    "doc_module": ("sfmlearn",),
    "backreferences_dir": "api/generated/backreferences",  # "Examples using X" on API pages
}

# --- figures drawn by the guide's {plot} directives -----------------------------------------
plot_include_source = False
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 110)]
plot_rcparams = {"figure.autolayout": True}

# --- HTML ----------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"sfmlearn {release}"
html_static_path = ["_static"]
html_css_files = ["sfmlearn.css"]
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"index": []}
html_show_sourcelink = False


def setup(app):
    app.config.mathjax_path = MATHJAX_PATH
