"""Renamed names keep working for one release, warn with the new name, and refuse both at once."""

import pytest
from sklearn.base import BaseEstimator, clone

from sfmlearn.utils.deprecation import DEPRECATED, deprecated_alias, renamed_arguments, renamed_parameter


def test_renamed_parameter_returns_the_new_value_silently_when_the_old_is_not_given(recwarn):
    assert renamed_parameter("Demo", "old", DEPRECATED, "new", 7) == 7
    assert not recwarn.list


def test_renamed_parameter_warns_with_both_names_and_uses_the_old_value():
    with pytest.warns(FutureWarning, match="'old' is renamed 'new'"):
        assert renamed_parameter("Demo", "old", 3, "new", 7) == 3


def test_renamed_arguments_passes_the_old_keyword_on_under_the_new_name():
    @renamed_arguments(every="informative_every")
    def demo(*, informative_every=1):
        return informative_every

    with pytest.warns(FutureWarning, match="'every' is renamed 'informative_every'"):
        assert demo(every=4) == 4
    assert demo(informative_every=5) == 5
    with pytest.raises(TypeError, match="both 'every' and its new name"):
        demo(every=4, informative_every=5)


class _Estimator(BaseEstimator):
    def __init__(self, alpha=1.0):
        self.alpha = alpha


def test_a_class_alias_is_a_subclass_that_warns_and_clones():
    Old = deprecated_alias(_Estimator, "OldEstimator")
    with pytest.warns(FutureWarning, match="'OldEstimator' is renamed '_Estimator'"):
        old = Old(alpha=2.0)
    assert isinstance(old, _Estimator) and old.get_params() == {"alpha": 2.0}
    with pytest.warns(FutureWarning):
        assert clone(old).alpha == 2.0


def test_a_function_alias_warns_and_calls_its_target():
    def target(x):
        return x + 1

    with pytest.warns(FutureWarning, match="'old' is renamed 'target'"):
        assert deprecated_alias(target, "old")(1) == 2


@pytest.mark.parametrize("name, home", [("format_verdict", "diagnostics"), ("prob_separable", "theory"),
                                        ("is_linearly_separable", "theory"),
                                        ("prob_separable_subspace_bounds", "theory")])
def test_names_moved_off_the_package_root_warn_and_still_work(name, home):
    import importlib

    import sfmlearn
    with pytest.warns(FutureWarning, match=f"sfmlearn.{name} moved to sfmlearn.{home}.{name}"):
        moved = getattr(sfmlearn, name)
    assert moved is getattr(importlib.import_module(f"sfmlearn.{home}"), name)
    assert name not in sfmlearn.__all__


def test_the_package_root_exports_estimators_and_main_functions_only():
    import inspect

    import sfmlearn
    assert all(inspect.isclass(getattr(sfmlearn, n)) or inspect.isfunction(getattr(sfmlearn, n))
               for n in sfmlearn.__all__)
