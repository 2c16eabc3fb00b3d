"""scikit-learn's estimator checks for the cross-validated SFM and zero-norm SVM.

The checks are about the API contract, not the choice of C: a small grid and few folds
run the same code as the defaults (the zero-norm SVM's two repeats keep the repeated
split under the checks) at a fraction of the cost, since the sparse-input checks refit
the whole path in every fold."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn import SupportFeatureMachineCV, WestonZeroNormSVMCV


@parametrize_with_checks([SupportFeatureMachineCV(Cs=4, cv=3, n_repeats=1, random_state=0),
                          WestonZeroNormSVMCV(Cs=3, cv=3, n_repeats=2, select="1se", random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)
