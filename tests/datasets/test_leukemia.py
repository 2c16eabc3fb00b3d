"""The packaged Golub leukemia data match the published description."""

import numpy as np

from sfmlearn.datasets import load_leukemia


def test_shapes_classes_and_patients():
    data = load_leukemia()
    assert data.X_train.shape == (38, 7129) and data.X_test.shape == (34, 7129)
    assert dict(zip(*np.unique(data.y_train, return_counts=True))) == {"ALL": 27, "AML": 11}
    assert dict(zip(*np.unique(data.y_test, return_counts=True))) == {"ALL": 20, "AML": 14}
    assert data.patient_train.tolist() == list(range(1, 39))
    assert data.patient_test.tolist() == list(range(39, 73))
    assert len(set(data.feature_names)) == 7129 and "Golub" in data.DESCR


def test_as_frame_keeps_accession_numbers():
    X_train, y_train, X_test, y_test = load_leukemia(as_frame=True, return_X_y=True)
    assert X_train.columns[0] == "AFFX-BioB-5_at"
    assert y_test.name == "cancer" and len(y_test) == 34
