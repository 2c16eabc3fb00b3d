"""Parameters declared once (selection/competitors/_params.py): the signature, the stored
attributes, the constraints and the docstring entries all come from one declaration."""

import inspect

import pytest

from sfmlearn.selection import (FSV, L1SVM, L2L0SVM, L2L1SVM, RLP, GolubClassifier,
                                KernelTargetAlignment, QuadraticFSV)
from sfmlearn.selection.competitors.hinge_lp import HINGE_PARAMETERS

DECLARED = [RLP, L1SVM, FSV, L2L1SVM, L2L0SVM, QuadraticFSV, KernelTargetAlignment, GolubClassifier]


@pytest.mark.parametrize("cls", DECLARED, ids=lambda cls: cls.__name__)
def test_signature_constraints_and_docstring_name_the_same_parameters(cls):
    names = [name for name in inspect.signature(cls).parameters]
    assert list(cls._parameter_constraints) == names
    entries = [line.split(" : ")[0].strip() for line in cls.__doc__.split("Parameters\n")[1]
               .split("Attributes\n")[0].splitlines() if line.startswith("    ") and " : " in line
               and not line.startswith("        ")]
    assert entries == names
    assert "%(" not in cls.__doc__


@pytest.mark.parametrize("cls", DECLARED, ids=lambda cls: cls.__name__)
def test_init_stores_every_argument_unchanged(cls):
    defaults = {name: p.default for name, p in inspect.signature(cls).parameters.items()}
    marker = object()
    for name in defaults:
        assert getattr(cls(**{name: marker}), name) is marker
    assert cls().get_params() == defaults


def test_positional_and_unknown_arguments_fail_as_in_python():
    assert L1SVM(0.2).lam == 0.2 and FSV(0.2, 3.0).alpha == 3.0
    with pytest.raises(TypeError, match=r"L1SVM\(\): .*unexpected keyword argument 'lambda_'"):
        L1SVM(lambda_=0.2)
    with pytest.raises(TypeError, match=r"RLP\(\): too many positional arguments"):
        RLP(0.2)


def test_the_ml05_models_share_one_declaration_per_parameter():
    for name in ("class_weight", "refit", "scale", "max_iter", "tol"):
        for cls in (RLP, L1SVM, FSV, L2L1SVM, L2L0SVM):
            assert cls._parameter_constraints[name] is HINGE_PARAMETERS[name].constraints
            assert inspect.signature(cls).parameters[name].default == HINGE_PARAMETERS[name].default
