"""scikit-learn's estimator checks for the cross-validated SFM and zero-norm SVM."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn import SupportFeatureMachineCV, WestonZeroNormSVMCV


@parametrize_with_checks([SupportFeatureMachineCV(Cs=4, random_state=0),
                          WestonZeroNormSVMCV(Cs=3, select="1se", random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)
