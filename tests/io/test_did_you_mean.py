"""The 'did you mean' of the readers' errors: a match but for case first, then the closest name."""

from sfmlearn.io.labelled import did_you_mean


def test_case_match_wins_over_a_closer_spelling():
    assert did_you_mean("Class", ["klass", "class", "Clas"]) == "; did you mean 'class'?"


def test_closest_spelling_then_nothing():
    assert did_you_mean("diagnosys", ["age", "diagnosis", "sex"]) == "; did you mean 'diagnosis'?"
    assert did_you_mean("batch", ["age", "diagnosis"]) == ""
