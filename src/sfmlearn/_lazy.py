"""Names of a package that load on first use (PEP 562), shared by the package root and
:mod:`sfmlearn.analysis` so that ``import sfmlearn`` and the command line's ``--help`` cost
the standard library only."""

import importlib


def lazy_names(package, sources, *, extra=()):
    """``(__getattr__, __dir__)`` for ``package`` whose name ``n`` lives in module ``sources[n]``.

    ``sources`` maps a public name to the module (relative to ``package``) that defines it;
    the first lookup imports that module and stores the name in the package, so later
    lookups are direct. ``extra`` names appear in ``dir()`` without being loaded.
    """
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name):
        if name not in sources:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(sources[name], package), name)
        namespace[name] = value
        return value

    def __dir__():
        return sorted(set(namespace) | set(sources) | set(extra))

    return __getattr__, __dir__
