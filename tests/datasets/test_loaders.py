"""The shipped datasets: checksums, and the shapes and class counts of the data README.

Every expected number below is copied from ../shared/data/README.md (the published
descriptions of the datasets), or from ML05 Table 1 where a loader option exists to
reproduce it -- never from our own output.
"""

import hashlib
import json
import os
from pathlib import Path

import nibabel as nib
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from sfmlearn.datasets import load_colon, load_haxby, load_leukemia, load_nips2003, load_uci
from sfmlearn.datasets._base import data_path
from sfmlearn.datasets._uci import UCI_NAMES

DATA_DIR = Path(str(data_path("MANIFEST.json"))).parent


def counts(y):
    values, n = np.unique(np.asarray(y), return_counts=True)
    return {v.item() if hasattr(v, "item") else v: int(c) for v, c in zip(values, n)}


# ------------------------------------------------------------------ checksums
def test_every_packaged_file_matches_the_manifest():
    manifest = json.loads((DATA_DIR / "MANIFEST.json").read_text())
    on_disk = {p.name for p in DATA_DIR.iterdir() if p.is_file() and p.name != "MANIFEST.json"}
    assert set(manifest) == on_disk
    for name, digest in manifest.items():
        assert hashlib.sha256((DATA_DIR / name).read_bytes()).hexdigest() == digest, name


def test_packaged_data_stay_compact():
    total = sum(p.stat().st_size for p in DATA_DIR.iterdir())
    assert total < 15e6  # the wheel must stay well under 30 MB


def _shared_data_dir():
    candidates = [os.environ.get("SFMLEARN_SHARED_DATA")]
    candidates += [str(p / "shared" / "data") for p in Path(__file__).resolve().parents]
    for candidate in candidates:
        if candidate and (Path(candidate) / "SHA256SUMS").is_file():
            return Path(candidate)
    return None


@pytest.mark.slow  # about 10 s: re-parses every raw file
@pytest.mark.skipif(_shared_data_dir() is None, reason="raw shared data not available")
def test_packaging_script_rebuilds_the_exact_packaged_bytes(tmp_path):
    """scripts/package_data.py applied to the checksummed raw files gives these files."""
    import importlib.util

    script = Path(__file__).resolve().parents[2] / "scripts" / "package_data.py"
    spec = importlib.util.spec_from_file_location("package_data", script)
    package_data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(package_data)
    package_data.main(_shared_data_dir(), tmp_path)
    rebuilt = json.loads((tmp_path / "MANIFEST.json").read_text())
    assert rebuilt == json.loads((DATA_DIR / "MANIFEST.json").read_text())


# ------------------------------------------------------------------ microarrays
def test_leukemia_shapes_and_classes():
    b = load_leukemia()
    assert b.X_train.shape == (38, 7129) and b.X_test.shape == (34, 7129)
    assert counts(b.y_train) == {"ALL": 27, "AML": 11}
    assert counts(b.y_test) == {"ALL": 20, "AML": 14}


def test_colon_shapes_classes_and_frame():
    b = load_colon()
    assert b.data.shape == (62, 2000) and b.data.dtype == np.float64
    assert counts(b.target_names[b.target]) == {"normal": 22, "tumour": 40}
    assert np.isfinite(b.data).all() and b.data.min() > 5 and b.data.max() < 21000
    frame = load_colon(as_frame=True)
    assert list(frame.frame.columns) == list(b.feature_names) + ["target"]
    np.testing.assert_array_equal(frame.data.to_numpy(), b.data)
    X, y = load_colon(return_X_y=True)
    np.testing.assert_array_equal(y, b.target)


# ------------------------------------------------------------------ UCI
# name -> (shape with every sample, class counts by target name, missing values)
UCI_EXPECTED = {
    "wpbc": ((198, 32), {"nonrecur": 151, "recur": 47}, 4),
    "breast_cancer_wisconsin": ((699, 9), {"benign": 458, "malignant": 241}, 16),
    "ionosphere": ((351, 34), {"good": 225, "bad": 126}, 0),
    "sonar": ((208, 60), {"mine": 111, "rock": 97}, 0),
    "cleveland": ((303, 13), {"no disease (num = 0)": 164, "disease (num > 0)": 139}, 6),
    "liver": ((345, 6), {"selector 1": 145, "selector 2": 200}, 0),
    "pima": ((768, 8), {"tested negative": 500, "tested positive": 268}, 0),
    "musk1": ((476, 166), {"musk": 207, "non-musk": 269}, 0),
}

# ML05 Table 1 (d, n, class counts) reproduced with the default missing="drop".
ML05_TABLE1 = {
    "wpbc60": (32, 110, {41, 69}), "wpbc24": (32, 155, {28, 127}),
    "liver": (6, 345, {145, 200}), "cleveland": (13, 297, {160, 137}),
    "ionosphere": (34, 351, {225, 126}), "pima": (8, 768, {500, 268}),
    "breast_cancer_wisconsin": (9, 683, {444, 239}), "sonar": (60, 208, {111, 97}),
    "musk1": (166, 476, {207, 269}),
}


@pytest.mark.parametrize("name", sorted(UCI_EXPECTED))
def test_uci_shapes_classes_and_missing_values_as_published(name):
    shape, classes, n_missing = UCI_EXPECTED[name]
    b = load_uci(name, missing="keep")
    assert b.data.shape == shape and b.data.dtype == np.float64
    assert len(b.feature_names) == shape[1] and len(set(b.feature_names)) == shape[1]
    assert counts(b.target_names[b.target]) == classes
    assert set(np.unique(b.target)) == {0, 1}
    assert int(np.isnan(b.data).sum()) == n_missing


@pytest.mark.parametrize("name", sorted(ML05_TABLE1))
def test_default_missing_policy_reproduces_ml05_table1(name):
    d, n, classes = ML05_TABLE1[name]
    b = load_uci(name)
    assert b.data.shape == (n, d)
    assert set(counts(b.target).values()) == classes
    assert not np.isnan(b.data).any()


def test_missing_values_sit_where_the_names_files_say():
    bcw = load_uci("breast_cancer_wisconsin", missing="keep")
    assert np.isnan(bcw.data).any(axis=0).tolist() == [n == "bare_nuclei" for n in bcw.feature_names]
    wpbc = load_uci("wpbc", missing="keep")
    assert np.flatnonzero(np.isnan(wpbc.data).any(axis=0)).tolist() == [31]  # lymph-node status
    cleveland = load_uci("cleveland", missing="keep")
    per_feature = dict(zip(cleveland.feature_names, np.isnan(cleveland.data).sum(axis=0)))
    assert per_feature["ca"] == 4 and per_feature["thal"] == 2


def test_impute_median_fills_only_missing_entries_with_the_observed_median():
    kept = load_uci("breast_cancer_wisconsin", missing="keep").data
    imputed = load_uci("breast_cancer_wisconsin", missing="impute_median").data
    absent = np.isnan(kept)
    np.testing.assert_array_equal(imputed[~absent], kept[~absent])
    column = absent.any(axis=0).argmax()
    assert np.all(imputed[absent] == np.median(kept[~absent[:, column], column]))


def test_cleveland_target_is_num_above_zero():
    b = load_uci("cleveland", missing="keep")
    assert counts(b.num) == {0: 164, 1: 55, 2: 36, 3: 35, 4: 13}
    np.testing.assert_array_equal(b.target, (b.num > 0).astype(int))


def test_wpbc_endpoints_follow_time_and_outcome():
    full = load_uci("wpbc")
    for months in (24, 60):
        b = load_uci(f"wpbc{months}")
        recurred = np.isin(b.ids, full.ids[full.target == 1])
        np.testing.assert_array_equal(b.target == 1, recurred & (b.time <= months))
        assert np.all(b.time[b.target == 0] > months)


def test_musk1_groups_are_the_92_molecules():
    b = load_uci("musk1")
    assert len(b.groups) == 476 and len(set(b.groups)) == 92
    molecule_class = pd.Series(b.target, index=b.groups).groupby(level=0).agg(["min", "max"])
    assert (molecule_class["min"] == molecule_class["max"]).all()  # one class per molecule
    assert counts(molecule_class["max"]) == {0: 45, 1: 47}
    assert all(name.startswith("MUSK-") == bool(t) for name, t in zip(b.groups, b.target))


@pytest.mark.parametrize("name", UCI_NAMES)
def test_uci_frame_and_return_X_y_agree_with_the_bunch(name):
    b = load_uci(name)
    framed = load_uci(name, as_frame=True)
    assert list(framed.frame.columns) == list(b.feature_names) + ["target"]
    np.testing.assert_array_equal(framed.data.to_numpy(), b.data)
    X, y = load_uci(name, return_X_y=True)
    np.testing.assert_array_equal(X, b.data)
    np.testing.assert_array_equal(y, b.target)
    assert "Terms" in b.DESCR or "terms" in b.DESCR.lower()


def test_descr_states_caveats_and_unverified_terms():
    assert "selector" in load_uci("liver").DESCR and "CAVEAT" in load_uci("liver").DESCR
    assert "UNCLEAR" in load_uci("pima").DESCR
    assert "num > 0" in load_uci("cleveland").DESCR
    assert "groups" in load_uci("musk1").DESCR
    for name in UCI_NAMES:
        assert "unverified" in load_uci(name).DESCR or "could not be verified" in load_uci(name).DESCR


def test_uci_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unknown UCI dataset 'iris'"):
        load_uci("iris")
    with pytest.raises(ValueError, match="missing must be one of"):
        load_uci("wpbc", missing="mean")


@pytest.mark.parametrize("load", [lambda **flags: load_uci("liver", **flags),
                                  lambda **flags: load_nips2003("madelon", **flags),
                                  load_colon, load_leukemia, load_haxby])
@pytest.mark.parametrize("flag", ["as_frame", "return_X_y"])
def test_loaders_refuse_flags_that_are_not_bool(load, flag):
    """The string "no" is not False: every loader's flags accept True and False only."""
    with pytest.raises(ValueError, match=f"'{flag}' parameter of load_.* must be an instance of 'bool'.* Got 'no'"):
        load(**{flag: "no"})


# ------------------------------------------------------------------ NIPS 2003
def test_arcene_and_madelon_splits():
    arcene = load_nips2003("arcene")
    assert arcene.X_train.shape == arcene.X_valid.shape == (100, 10000)
    assert counts(arcene.y_train) == counts(arcene.y_valid) == {-1: 56, 1: 44}
    assert arcene.X_train.min() >= 0 and arcene.X_valid.max() <= 999
    madelon = load_nips2003("madelon")
    assert madelon.X_train.shape == (2000, 500) and madelon.X_valid.shape == (600, 500)
    assert counts(madelon.y_train) == {-1: 1000, 1: 1000}
    assert counts(madelon.y_valid) == {-1: 300, 1: 300}
    X_train, y_train, X_valid, y_valid = load_nips2003("madelon", return_X_y=True)
    np.testing.assert_array_equal(X_valid, madelon.X_valid)


def test_dexter_is_sparse_training_split():
    b = load_nips2003("dexter")
    assert set(b) >= {"X_train", "y_train"} and "X_valid" not in b
    assert sp.isspmatrix_csr(b.X_train) and b.X_train.shape == (300, 20000)
    assert b.X_train.nnz == 28218 and b.X_train.data.min() > 0
    assert counts(b.y_train) == {-1: 150, 1: 150}
    frame, labels = load_nips2003("dexter", as_frame=True, return_X_y=True)
    assert frame.shape == (300, 20000) and frame.sparse.density < 0.01
    np.testing.assert_array_equal(labels.to_numpy(), b.y_train)


def test_dorothea_is_sparse_binary_validation_split():
    b = load_nips2003("dorothea")
    assert set(b) >= {"X_valid", "y_valid"} and "X_train" not in b
    assert sp.isspmatrix_csr(b.X_valid) and b.X_valid.shape == (350, 100000)
    assert b.X_valid.nnz == 317752 and np.all(b.X_valid.data == 1)  # dorothea.param check-sum
    assert counts(b.y_valid) == {-1: 316, 1: 34}


def test_nips2003_rejects_unknown_names():
    with pytest.raises(ValueError, match="gisette"):
        load_nips2003("gisette")


# ------------------------------------------------------------------ Haxby 2001
CATEGORY_COUNTS = {c: 108 for c in ("face", "house", "cat", "bottle", "scissors", "shoe",
                                    "chair", "scrambledpix")} | {"rest": 588}


def test_haxby_slice_view():
    b = load_haxby()
    assert isinstance(b.bold, nib.Nifti1Image) and b.bold.shape == (40, 20, 1, 1452)
    assert b.mask == "slice" and int(np.asarray(b.masks["slice"].dataobj).astype(bool).sum()) == 530
    assert b.data.shape == (1452, 530)
    assert counts(b.target) == CATEGORY_COUNTS
    assert counts(b.runs) == {r: 121 for r in range(1, 13)}
    assert np.all(np.diff(b.runs) >= 0)  # runs are contiguous blocks, in order
    assert "CC BY-SA 3.0" in b.DESCR and "Haxby" in b.DESCR
    X, y = load_haxby(return_X_y=True)
    np.testing.assert_array_equal(X, b.data)
    framed = load_haxby(as_frame=True)
    assert list(framed.frame.columns[:2]) == list(b.feature_names[:2])
    assert framed.frame["target"].tolist() == list(b.target)


def test_haxby_masked_matrix_is_the_bold_signal_at_the_mask_voxels():
    b = load_haxby("25mm", mask="gray")
    bold = np.asarray(b.bold.dataobj)
    i, j, k = b.voxel_indices.T
    np.testing.assert_array_equal(b.data, bold[i, j, k, :].T)
    assert np.asarray(b.mask_img.dataobj)[i, j, k].all()
    assert int(np.asarray(b.mask_img.dataobj).sum()) == b.data.shape[1]


@pytest.mark.parametrize("mask, n_voxels", [("brain", 129), ("gray", 28), ("white", 34),
                                            ("hoc", 45), ("vt", 1)])
def test_haxby_25mm_view_masks(mask, n_voxels):
    b = load_haxby("25mm", mask=mask)
    assert b.bold.shape == (6, 10, 10, 1452)
    assert b.data.shape == (1452, n_voxels)
    assert sorted(b.masks) == ["brain", "gray", "hoc", "vt", "white"]


def test_haxby_custom_mask_and_errors():
    inside = np.zeros((6, 10, 10), dtype=bool)
    inside[2, 5, 5] = inside[3, 4, 4] = True
    b = load_haxby("25mm", mask=inside)
    assert b.mask == "custom" and b.data.shape == (1452, 2)
    with pytest.raises(ValueError, match="mask has shape"):
        load_haxby("25mm", mask=np.ones((40, 20, 1), dtype=bool))
    with pytest.raises(ValueError, match="unknown mask 'vt'"):
        load_haxby("slice", mask="vt")
    with pytest.raises(ValueError, match="view must be one of"):
        load_haxby("3mm")


@pytest.mark.parametrize("values, message", [
    (np.zeros((6, 10, 10)), "the mask is empty: it selects no voxel .*> 0"),
    (-np.ones((6, 10, 10)), "the mask is empty: it selects no voxel .*> 0"),
    (np.where(np.arange(600).reshape(6, 10, 10) < 3, np.nan, 1.0), "the mask holds 3 NaN values"),
    (np.full((6, 10, 10), "a"), "must hold booleans or numbers"),
])
def test_haxby_refuses_a_custom_mask_that_selects_nothing_or_holds_nan(values, message):
    with pytest.raises(ValueError, match=message):
        load_haxby("25mm", mask=values)


def test_haxby_refuses_a_mask_image_on_another_grid_of_the_same_shape():
    bold_affine = load_haxby("25mm").bold.affine
    shifted = bold_affine.copy()
    shifted[0, 3] += 12.5  # half a voxel along x
    mask = nib.Nifti1Image(np.ones((6, 10, 10), np.uint8), shifted)
    with pytest.raises(ValueError, match=r"not on the grid of the '25mm' volumes.* up to 12.5 mm.*resample_to_img"):
        load_haxby("25mm", mask=mask)
    same_grid = nib.Nifti1Image(np.ones((6, 10, 10), np.uint8), bold_affine)
    assert load_haxby("25mm", mask=same_grid).data.shape == (1452, 600)


def test_haxby_slice_view_takes_a_2d_mask_for_its_single_slice():
    inside = np.zeros((40, 20), dtype=bool)
    inside[10:12, 5] = True
    assert load_haxby("slice", mask=inside).data.shape == (1452, 2)
