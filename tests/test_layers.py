"""The package's import structure: no import runs up the layers, no private module leaks.

Every module under ``src/sfmlearn`` is parsed (``ast``; imports inside functions count
too) and each import is resolved to the sfmlearn module it names. A *unit* is a
top-level module or subpackage of sfmlearn (``selection``, ``theory``, ``_version``;
the package's own ``__init__`` is the unit ``sfmlearn``). Two rules:

(a) **Public APIs only.** A module never imports a private module (a dotted component
    starting with ``_``, e.g. ``datasets._registry``) or a private name (``_flush_all``)
    of *another* unit. Inside its own unit a package may use its private helpers. The
    package-root helpers ``sfmlearn._validation`` (input checks shared by every
    estimator and the CLI, DESIGN.md section 2), ``sfmlearn._version`` (the one
    version string) and ``sfmlearn._lazy`` (names loaded on first use) are shared by
    design and allowed everywhere.

(b) **No import runs up the layers.** A module imports only from its own unit and from
    units of a *lower* layer; units that share a layer are independent of each other.
    Lowest first:

    ====  ==================================  =============================================
    0     exceptions, _version, _lazy,        no sfmlearn imports at all
          io, outputs, utils
    1     _validation                         input checks (raises exceptions)
    2     preprocessing, model_selection      scaling; splitters, scores, curves -- they
                                              import no estimator (the rSFM's chance test
                                              uses model_selection, so it sits below)
    3     lp                                  problem builders, engines, certificates
    4     optim                               DCA, coordinate descent, QPs (lp's problems)
    5     selection                           the estimators (incl. the repetitive SFM and
                                              the informative-fraction estimate)
    6     theory, datasets, imaging           separability theory; data generators and
                                              loaders; images and volumes
    7     diagnostics                         chance checks (theory), LOO pitfalls (optim)
    8     mvpa                                fMRI decoding on top of estimators, imaging
    9     plotting                            matplotlib figures
    10    experiments                         paper reproductions
    11    analysis                            one function per user-facing analysis (fit,
                                              CV, chance, test scoring) -> a typed result
    12    report                              renders results: HTML reports, result folders
                                              (above analysis: it renders its results and
                                              takes their classes; it computes nothing)
    13    cli                                 the ``sfmlearn`` command: parses, calls one
                                              analysis, prints/renders/writes
    14    sfmlearn (``__init__``), __main__   the public API collects from everything
    ====  ==================================  =============================================

    This is DESIGN.md's data flow (inputs validated at the edge, estimators build
    problems, engines solve them, and mvpa/, experiments/, analysis, report and the CLI
    only consume estimators) written as an order.

(c) **The command line goes through the analyses.** A module of ``cli`` imports from
    sfmlearn only ``analysis``, ``io``, ``outputs``, ``report``, ``exceptions``,
    ``_version``, ``_validation`` and its own package (``CLI_IMPORTS``): what a command
    computes is an analysis function, so the same computation serves Python users.

An import that breaks a rule and cannot be removed at once goes into ``ALLOWED`` with its
reason; the test fails on any other violation, and on an entry that no longer occurs, so
the list can only shrink.
"""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "sfmlearn"

LAYERS = [
    {"exceptions", "_version", "_lazy", "io", "outputs", "utils"},
    {"_validation"},
    {"preprocessing", "model_selection"},
    {"lp"},
    {"optim"},
    {"selection"},
    {"theory", "datasets", "imaging"},
    {"diagnostics"},
    {"mvpa", "panels"},
    {"plotting"},
    {"experiments"},
    {"analysis"},
    {"report"},
    {"cli"},
    {"sfmlearn", "__main__"},
]
LAYER = {unit: rank for rank, units in enumerate(LAYERS) for unit in units}
SHARED_PRIVATE = {"_validation", "_version", "_lazy"}
#: The units a module of the command line may import from (rule (c)).
CLI_IMPORTS = {"cli", "analysis", "io", "outputs", "report", "exceptions", "_version", "_validation"}

#: (importing module, imported module[:name]) -> why it is still allowed; an entry needs a
#: reason and disappears with its import.
ALLOWED = {}


def _modules(src):
    """{dotted name: path} of every module of the package in folder ``src``."""
    modules = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src.parent).with_suffix("").parts)
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


MODULES = _modules(SRC)


def _unit(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "sfmlearn"


def _imports(module, path, modules=MODULES):
    """(imported module, imported name or None) for every sfmlearn import of ``module``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((a.name, None) for a in node.names if a.name.split(".")[0] == "sfmlearn")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "sfmlearn":
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                yield (submodule, None) if submodule in modules else (target, alias.name)


def _private(target, name):
    private_part = any(p.startswith("_") for p in target.split(".")[1:])
    return private_part or (name is not None and name.startswith("_") and not name.startswith("__"))


def _violations(modules=MODULES):
    """{(module, target[:private name]): reason} of every import that breaks rule (a) or (b)."""
    found = {}
    for module, path in modules.items():
        for target, name in _imports(module, path, modules):
            here, there = _unit(module), _unit(target)
            if here == there:
                continue
            private = there not in SHARED_PRIVATE and _private(target, name)
            key = (module, f"{target}:{name}" if private and name and name.startswith("_") else target)
            if private:
                found[key] = f"private to {there}"
            elif LAYER[there] >= LAYER[here]:
                found[key] = f"runs up the layers ({here}: layer {LAYER[here]}, {there}: layer {LAYER[there]})"
    return found


def test_every_unit_has_a_layer():
    units = {_unit(m) for m in MODULES}
    assert units - set(LAYER) == set(), "place the new module in LAYERS (and the docstring)"
    assert set(LAYER) - units == set(), "a unit in LAYERS no longer exists"


def test_imports_follow_the_layers_and_use_public_apis():
    new = {key: why for key, why in _violations().items() if key not in ALLOWED}
    assert new == {}, "imports that break the rules in this module's docstring"


def test_the_command_line_imports_only_analyses_and_outputs():
    """Rule (c): a command parses, calls an analysis and prints; it computes nothing itself."""
    found = {(module, target) for module, path in MODULES.items() if _unit(module) == "cli"
             for target, _ in _imports(module, path) if _unit(target) not in CLI_IMPORTS}
    assert found == set()


def test_allowed_exceptions_still_exist():
    """A fixed import must leave ALLOWED, so the list only shrinks."""
    stale = set(ALLOWED) - set(_violations())
    assert stale == set()


@pytest.mark.parametrize("source, expected", [
    ("from ..selection._base import X", ("sfmlearn.selection._base", "X")),
    ("from .. import datasets", ("sfmlearn.datasets", None)),
    ("from .. import __version__", ("sfmlearn", "__version__")),
    ("from ..lp._internal import helper as f", ("sfmlearn.lp._internal", "helper")),
    ("import sfmlearn.theory", ("sfmlearn.theory", None)),
])
def test_imports_are_resolved_relative_to_the_importing_package(tmp_path, source, expected):
    """The resolver the rules rely on, for a module sfmlearn.cli.example."""
    path = tmp_path / "example.py"
    path.write_text(source + "\n")
    assert list(_imports("sfmlearn.cli.example", path)) == [expected]


def test_the_rules_catch_imports_up_the_layers_and_into_private_modules(tmp_path):
    """A small tree with the old imports: up the layers, private modules and names."""
    files = {
        "__init__.py": "from ._version import __version__\n",
        "_version.py": "",
        "_validation.py": "",
        "report/__init__.py": "",
        "report/html.py": "from .. import __version__\nfrom .._validation import check\n",
        "selection/__init__.py": "",
        "selection/_repetition.py": "",
        "selection/repetitive.py": "def fit():\n    from ..informative import _check_cs\n",
        "informative.py": "from .selection._repetition import run\n",
        "mvpa/__init__.py": "",
        "mvpa/repetitive.py": "from ..selection import _repetition\nfrom . import helpers\n",
        "mvpa/helpers.py": "",
    }
    for name, text in files.items():
        (tmp_path / "sfmlearn" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "sfmlearn" / name).write_text(text)
    LAYER["informative"] = LAYER["mvpa"]
    try:
        found = _violations(_modules(tmp_path / "sfmlearn"))
    finally:
        del LAYER["informative"]
    assert set(found) == {
        ("sfmlearn.report.html", "sfmlearn"),
        ("sfmlearn.selection.repetitive", "sfmlearn.informative:_check_cs"),
        ("sfmlearn.informative", "sfmlearn.selection._repetition"),
        ("sfmlearn.mvpa.repetitive", "sfmlearn.selection._repetition"),
    }
    assert "runs up the layers" in found["sfmlearn.report.html", "sfmlearn"]
    assert found["sfmlearn.informative", "sfmlearn.selection._repetition"] == "private to selection"
