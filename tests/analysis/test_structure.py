"""The analyses, the command line and the report stay small and use each other's public parts.

Limits: no module over 500 lines, no class over 300; no module reads or calls a
leading-underscore attribute of an object it did not define (``other._hook()``), except
``self``/``cls`` and the module's own names.
"""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "sfmlearn"
FILES = sorted([*SRC.glob("analysis/*.py"), *SRC.glob("cli/*.py"), *SRC.glob("report/*.py"),
                SRC / "outputs" / "result_folder.py", SRC / "imaging" / "images.py", SRC / "__init__.py"])


def _name(path):
    return str(path.relative_to(SRC))


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_modules_and_classes_are_small(path):
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 500
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno - node.lineno + 1 <= 300, node.name


def _private_uses(tree):
    """``object._name`` where the object is neither self/cls nor a module-level name of this file."""
    own = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    own |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            if isinstance(base, ast.Name) and (base.id in {"self", "cls"} or base.id in own):
                continue
            yield f"{ast.unparse(base)}.{node.attr} (line {node.lineno})"


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_no_private_attribute_of_another_object(path):
    assert list(_private_uses(ast.parse(path.read_text(encoding="utf-8")))) == []


def test_the_check_sees_a_private_hook():
    tree = ast.parse("def f(model):\n    return model._fit_path(1)\n")
    assert list(_private_uses(tree)) == ["model._fit_path (line 2)"]
