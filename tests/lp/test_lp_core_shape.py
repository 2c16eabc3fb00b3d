"""The LP core's shape, read from its source with ``ast`` (nothing is imported).

* ``sfmlearn.lp`` needs numpy, scipy and highspy only: no module of it imports the
  readers of users' data (``sfmlearn.io``), pandas, matplotlib or nibabel, anywhere in
  the module (imports inside functions count too).
* The parts of row generation are under 300 lines each; every class of row generation
  sets its state in ``__init__`` and has no one-letter attribute (no aliases like
  ``self.p`` for the problem).

File and class sizes, private hooks and import cycles across the whole package are
tests/test_structure.py's.
"""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "sfmlearn"
LP = SRC / "lp"
FORBIDDEN = ("sfmlearn.io", "pandas", "matplotlib", "nibabel")


def _module_name(path):
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for path in sorted(LP.rglob("*.py"))}


def _package(module, path):
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _imports(module, path):
    """(line, imported module) of every import of ``module``; ``from X import name``
    yields X.name when that is a module of the package, else X."""
    tree = ast.parse(path.read_text())
    nodes = list(ast.walk(tree))
    found = []
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package(module, path)
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.append((node.lineno, name if name in MODULES else base))
    return found


def test_the_lp_core_imports_no_reader_of_users_data_nor_plotting():
    bad = [f"{module}:{line} imports {target}"
           for module, path in MODULES.items() for line, target in _imports(module, path)
           if any(target == name or target.startswith(name + ".") for name in FORBIDDEN)]
    assert bad == []


def _classes(path):
    return [node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ClassDef)]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("sfmlearn.lp.rowgen")))
def test_the_parts_of_row_generation_are_under_300_lines(module):
    assert len(MODULES[module].read_text().splitlines()) <= 300


def _self_attributes(function):
    return {target.attr for node in ast.walk(function)
            for target in (node.targets if isinstance(node, ast.Assign) else
                           [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            for target in ([target] if not isinstance(target, ast.Tuple) else target.elts)
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
            and target.value.id == "self"}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("sfmlearn.lp.rowgen")))
def test_row_generation_classes_set_their_state_in_init(module):
    for cls in _classes(MODULES[module]):
        methods = [node for node in cls.body if isinstance(node, ast.FunctionDef)]
        init = [_self_attributes(method) for method in methods if method.name == "__init__"]
        declared = init[0] if init else set()
        for method in methods:
            if method.name != "__init__":
                assert _self_attributes(method) <= declared, f"{cls.name}.{method.name}"
        assert all(len(name) > 1 for name in declared), cls.name
