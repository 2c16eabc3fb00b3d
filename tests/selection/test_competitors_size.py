"""The competitors and their solvers stay readable: no file over 500 lines, no class over 300."""

import ast
from pathlib import Path

import pytest

import sfmlearn

ROOT = Path(sfmlearn.__file__).parent
FILES = sorted([*ROOT.glob("selection/competitors/**/*.py"), ROOT / "selection" / "multiclass.py",
                *(ROOT / "optim" / f"{name}.py" for name in ("dca", "cd", "qp", "hard_margin", "svm",
                                                             "_threads"))])


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_file_and_class_sizes(path):
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 500
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno - node.lineno + 1 <= 300, f"class {node.name} in {path.name}"
