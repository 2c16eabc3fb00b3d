r"""docs/_ext/plain_formulas.py escapes plain-text formulas and leaves math alone.

The docstrings state their formulas as ``.. math::`` blocks and ``:math:`` roles (LaTeX:
``\|w\|_0``, ``\mu_+``, ``x_i``); the extension still escapes ``|w_j|`` and ``coef_`` in
prose, where reStructuredText would read a substitution or a hyperlink reference. And the
estimators keep their formulas as math: no plain-text formula (``||w||``, ``>=``,
``sum_i``) is left in the prose of their docstrings.
"""

import inspect
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))
pytest.importorskip("sphinx")  # the extension imports nothing of Sphinx, but it is one

from plain_formulas import escape_docstring  # noqa: E402

import sfmlearn  # noqa: E402
from sfmlearn import lp  # noqa: E402
from sfmlearn import selection  # noqa: E402
from sfmlearn.optim import problem as optim_problem  # noqa: E402
from sfmlearn.model_selection import budgets  # noqa: E402


def _escaped(text):
    lines = text.splitlines()
    escape_docstring(lines)
    return lines


def test_math_block_is_left_alone():
    block = [
        "The SFM:",
        "",
        ".. math::",
        "",
        r"    \min_{w, b} \|w\|_0 \quad \text{s.t.} \quad y_i (w \cdot x_i + b) \ge 0",
        r"    \qquad (\mu_+ - \mu_-) \cdot w = 1",
        "",
        "then |w_j| and coef_ in prose.",
    ]
    lines = _escaped("\n".join(block))
    assert lines[:6] == block[:6]
    assert lines[7] == r"then \|w_j\| and coef\_ in prose."


def test_one_line_math_directive_is_left_alone():
    line = r".. math:: P_j = \frac{\mu_{+j} - \mu_{-j}}{\sigma_{+j} + \sigma_{-j}}"
    assert _escaped(line) == [line]


def test_inline_math_is_left_alone_and_the_prose_around_it_escaped():
    line = r"the weights :math:`\|w\|_1 + C \sum_i \xi_i` of coef_ and |w_j|"
    assert _escaped(line) == [r"the weights :math:`\|w\|_1 + C \sum_i \xi_i` of coef\_ and \|w_j\|"]


def test_math_block_inside_a_parameter_description_is_left_alone():
    block = [
        "C : float",
        "    Softness:",
        "",
        "    .. math::",
        "",
        r"        C_+ n_+ = C_- n_- \quad |\mu_+|",
        "",
        "    so |w| shrinks.",
    ]
    lines = _escaped("\n".join(block))
    assert lines[5] == block[5]
    assert lines[7] == r"    so \|w\| shrinks."


#: The public estimators and problems whose docstrings state the papers' formulas.
WITH_FORMULAS = [
    sfmlearn.SupportFeatureMachine, sfmlearn.WestonZeroNormSVM, sfmlearn.RepetitiveSFM,
    sfmlearn.RLP, sfmlearn.L1SVM, sfmlearn.FSV, sfmlearn.L2L1SVM, sfmlearn.L2L0SVM,
    sfmlearn.QuadraticFSV, sfmlearn.KernelTargetAlignment, sfmlearn.PotentialSVM,
    sfmlearn.HardMarginSVM, sfmlearn.GolubClassifier, sfmlearn.minimum_support,
    selection.fisher_score, selection.t_score, optim_problem, optim_problem.SFMProblem,
    optim_problem.WestonProblem, budgets, lp.HyperplaneLP, lp.sfm_lp, lp.weston_lp,
]

#: Plain-text formula notation that the math replaced.
PLAIN_FORMULA = re.compile(r"\|\|\w|\bsum_[ij{]|\bs\.t\.|(?<![<>=])(>=|<=)(?![<>=])|\bmu_[+-]")


def _prose_lines(doc):
    """The docstring's lines outside ``.. math::`` / literal blocks and doctests, without
    their inline math and literals."""
    prose, block_indent = [], None
    for line in doc.splitlines():
        indent = len(line) - len(line.lstrip())
        if block_indent is not None and (not line.strip() or indent > block_indent):
            continue
        block_indent = indent if line.rstrip().endswith("::") else None
        if not line.lstrip().startswith((">>>", "...", ".. ")):
            prose.append(re.sub(r":math:`[^`]+`|``[^`]+``", "", line))
    return prose


@pytest.mark.parametrize("obj", WITH_FORMULAS, ids=lambda obj: obj.__name__)
def test_formulas_are_written_as_math(obj):
    doc = inspect.getdoc(obj)
    assert ".. math::" in doc or ":math:`" in doc, f"{obj.__name__} states no formula as math"
    plain = [line for line in _prose_lines(doc) if PLAIN_FORMULA.search(line)]
    assert plain == [], f"{obj.__name__}: plain-text formulas left in the prose: {plain}"


def test_the_check_sees_a_plain_formula():
    doc = "Minimises\n\n    minimise ||w||_0 s.t. y_i (w . x_i + b) >= 0\n\nby LPs."
    assert any(PLAIN_FORMULA.search(line) for line in _prose_lines(doc))
    math = "Minimises\n\n.. math::\n\n    \\|w\\|_0 \\ge 0\n\nby :math:`\\sum_i \\xi_i` LPs."
    assert not any(PLAIN_FORMULA.search(line) for line in _prose_lines(math))
