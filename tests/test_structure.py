"""The source stays easy to change: small files and classes, no private hooks, no import cycles.

Every module under ``src/sfmlearn`` is parsed with ``ast``. Three rules:

(a) **Small pieces.** No file over :data:`MAX_FILE_LINES` lines and no class over
    :data:`MAX_CLASS_LINES`: a reader sees one job per module.
(b) **No private hooks across classes.** A module touches a leading-underscore attribute
    (``obj._fit_prepared``) only on ``self``/``cls``/``super()`` or when a class of the same
    module defines that name. The one exception is scikit-learn's documented way of
    extending a base estimator's ``_parameter_constraints``.
(c) **No import cycle.** The module-level imports between sfmlearn's modules form no cycle
    (imports inside functions and under ``if TYPE_CHECKING:`` are deferred and do not count).

tests/test_layers.py checks the order of the layers; this file checks what holds inside them.
"""

import ast
from pathlib import Path

import pytest

from test_layers import MODULES, _imports

MAX_FILE_LINES = 500
MAX_CLASS_LINES = 300
#: Private names that a module may read on another class: scikit-learn's convention for
#: extending a base estimator's declared parameter constraints.
SHARED_PRIVATE_ATTRIBUTES = {"_parameter_constraints"}


def _tree(path):
    return ast.parse(Path(path).read_text(encoding="utf-8"))


def _long_files():
    lengths = {module: len(path.read_text(encoding="utf-8").splitlines()) for module, path in MODULES.items()}
    return {module: n for module, n in lengths.items() if n > MAX_FILE_LINES}


def _long_classes():
    found = {}
    for module, path in MODULES.items():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES:
                found[f"{module}.{node.name}"] = node.end_lineno - node.lineno + 1
    return found


def _private_names_defined_by_classes(tree):
    """Leading-underscore names a class of this module defines (methods or ``self._x = ...``)."""
    names = set()
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("_"):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr.startswith("_"):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id.startswith("_"):
                names.add(node.id)  # class-level attributes
    return names


def _own(value):
    if isinstance(value, ast.Name) and value.id in {"self", "cls"}:
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"


def private_hook_uses(tree):
    """``obj._name`` accesses in ``tree`` on objects whose class this module does not define."""
    defined = _private_names_defined_by_classes(tree) | SHARED_PRIVATE_ATTRIBUTES
    return sorted(
        f"{ast.unparse(node.value)}.{node.attr} (line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
        and not _own(node.value) and node.attr not in defined)


def _deferred(tree):
    """Import nodes inside functions or under ``if TYPE_CHECKING:``."""
    deferred = set()
    for node in ast.walk(tree):
        is_function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        is_type_check = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        if is_function or is_type_check:
            deferred.update(id(n) for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
    return deferred


def _module_level_graph(modules=MODULES):
    """{module: modules it imports at module level} among sfmlearn's modules."""
    graph = {}
    for module, path in modules.items():
        tree = _tree(path)
        deferred = _deferred(tree)
        eager = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in deferred]
        source = _Source(path.name, ast.unparse(ast.Module(body=eager, type_ignores=[])))
        targets = set()
        for target, _ in _imports(module, source, modules):
            while target not in modules and "." in target:
                target = target.rpartition(".")[0]
            if target != module and target in modules:
                targets.add(target)
        graph[module] = targets
    return graph


class _Source:
    """A file name and given source text, read like a path by :func:`test_layers._imports`."""

    def __init__(self, name, text):
        self.name, self._text = name, text

    def read_text(self, encoding=None):
        return self._text


def import_cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph.get(node, ()):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_no_file_is_over_the_limit():
    assert _long_files() == {}, f"split these modules (at most {MAX_FILE_LINES} lines)"


def test_no_class_is_over_the_limit():
    assert _long_classes() == {}, f"split these classes (at most {MAX_CLASS_LINES} lines)"


def test_no_module_uses_another_class_private_hooks():
    found = {module: uses for module, path in MODULES.items() if (uses := private_hook_uses(_tree(path)))}
    assert found == {}, "use a public method or object instead of another class's private one"


def test_module_level_imports_form_no_cycle():
    cycles = [c for c in import_cycles(_module_level_graph()) if not all(m.endswith("__init__") for m in c)]
    assert cycles == [], "break the cycle: move the shared piece into a lower module"


@pytest.mark.parametrize("source, expected", [
    ("class A:\n    def _hook(self):\n        pass\ndef f(a):\n    return a._hook()\n", []),
    ("def f(estimator):\n    return estimator._fit_prepared()\n", ["estimator._fit_prepared (line 2)"]),
    ("class B(A):\n    def f(self):\n        return super()._hook()\n", []),
    ("class B(A):\n    c = {**A._parameter_constraints}\n", []),
])
def test_the_private_hook_rule_on_small_examples(source, expected):
    assert private_hook_uses(ast.parse(source)) == expected


def test_the_cycle_finder_on_a_small_graph():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c"]]
