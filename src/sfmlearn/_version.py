"""The version of sfmlearn, in one place.

``pyproject.toml`` reads it (``[tool.setuptools.dynamic]``), ``sfmlearn.__version__``
re-exports it, and the modules that print it (``sfmlearn --version``, the HTML report's
footer) import it from here rather than from the package root, which sits above them.
"""

__version__ = "0.1.0"
