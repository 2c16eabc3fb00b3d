"""The public names of sfmlearn and the names the API reference documents.

Shared by the reference-completeness and docstring tests (tests/docs/). "Public" means:
the ``__all__`` of the package root, of every subpackage and top-level module whose
dotted path has no component starting with "_", and of every further module the
reference documents with ``.. automodule::`` (documenting a module promises all of it).
The command line (``sfmlearn.cli``) is documented on docs/cli.rst, generated from its
parser, and not here.
"""

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import sfmlearn

API_DIR = Path(__file__).resolve().parents[2] / "docs" / "api"
NOT_IN_API_REFERENCE = {"sfmlearn.cli"}  # docs/cli.rst: generated from build_parser()

_DIRECTIVE = re.compile(r"^\.\. (\S+)::\s*(\S*)")


def reference_entries(api_dir=API_DIR):
    """``(full name, file)`` of every autosummary entry, and the automodule'd modules."""
    entries, modules = [], set()
    for page in sorted(api_dir.glob("*.rst")):
        current, in_autosummary = "sfmlearn", False
        for line in page.read_text(encoding="utf-8").splitlines():
            directive = _DIRECTIVE.match(line)
            if directive:
                kind, argument = directive.groups()
                in_autosummary = kind == "autosummary"
                if kind in ("currentmodule", "module"):
                    current = argument
                elif kind == "automodule":
                    modules.add(argument)
                continue
            if in_autosummary:
                if line and not line.startswith(" "):
                    in_autosummary = False
                elif line.strip() and not line.strip().startswith(":"):
                    entries.append((f"{current}.{line.strip()}", page.name))
    return entries, modules


def public_modules(documented_modules=()):
    names = {"sfmlearn"}
    for info in pkgutil.walk_packages(sfmlearn.__path__, "sfmlearn."):
        parts = info.name.split(".")
        if any(part.startswith("_") for part in parts[1:]):
            continue
        if info.ispkg or len(parts) == 2:
            names.add(info.name)
    names |= set(documented_modules)
    return sorted(name for name in names
                  if not any(name == skip or name.startswith(skip + ".")
                             for skip in NOT_IN_API_REFERENCE))


def resolve(full_name):
    module_name, _, attribute = full_name.rpartition(".")
    return getattr(importlib.import_module(module_name), attribute)


def public_names(documented_modules=()):
    """``(module, name, object)`` for every name in a public ``__all__``."""
    for module_name in public_modules(documented_modules):
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            yield module_name, name, getattr(module, name)


def documented_objects():
    """One canonical documented name per public class or function (the reference's)."""
    entries, _ = reference_entries()
    objects = {}
    for full_name, _page in entries:
        obj = resolve(full_name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            objects.setdefault(full_name, obj)
    return objects
