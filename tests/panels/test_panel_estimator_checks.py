"""scikit-learn's estimator checks on MarkerPanel (data as given: the checks' data are not counts)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn.panels import MarkerPanel


@parametrize_with_checks([MarkerPanel(n_markers=2, normalize="none", n_Cs=3, max_cells=20,
                                      random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)
