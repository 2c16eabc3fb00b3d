"""Build the compact data files shipped inside the package from ../shared/data.

Run from the repository root: ``python scripts/package_data.py [SHARED_DATA_DIR [OUT_DIR]]``
(default: the nearest ``shared/data`` above the repository, and
``src/sfmlearn/datasets/data``).
The raw files (with their provenance and checksums) live outside the repository; this
script documents exactly how each packaged file was derived from them, and
``sfmlearn/datasets/data/MANIFEST.json`` records the SHA-256 of every packaged file,
checked by the test suite.

Tables become compressed ``.npz`` archives written deterministically (fixed member
order and timestamps), so re-running the script reproduces the committed bytes (with
the same zlib). Already-compressed NIfTI files (``.nii.gz``) are copied unchanged.
Every builder asserts the shapes and class counts of the data README.
The packaged directory is flat because ``pyproject.toml`` ships ``datasets/data/*``.
"""

import hashlib
import io
import json
import shutil
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "sfmlearn" / "datasets" / "data"


def save_npz(path, **arrays):
    """``np.savez_compressed`` with reproducible bytes (no timestamps, sorted members)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for key in sorted(arrays):
            array = np.asarray(arrays[key])
            if array.dtype.kind == "O":
                raise TypeError(f"{path.name}:{key} is an object array; store strings as 'U'")
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array, allow_pickle=False)
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, buffer.getvalue(), compresslevel=9)


def compact(values):
    """The smallest integer dtype holding integer-valued data exactly; else float64."""
    values = np.asarray(values, dtype=np.float64)
    if not np.isfinite(values).all() or not np.array_equal(values, np.round(values)):
        return values
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= values.min() and values.max() <= info.max:
            return values.astype(dtype)
    return values.astype(np.int64)


def class_counts(labels):
    values, counts = np.unique(np.asarray(labels), return_counts=True)
    return {str(v): int(c) for v, c in zip(values, counts)}


def expect(name, actual, expected):
    if actual != expected:
        raise AssertionError(f"{name}: expected {expected}, got {actual}")


# --------------------------------------------------------------------- microarrays
def _golub_split(path):
    """Gene x patient CSV (Kaggle layout) -> (patients x genes int32, patient ids)."""
    table = pd.read_csv(path)
    patient_cols = [c for c in table.columns if c.isdigit()]
    ids = np.array(sorted(int(c) for c in patient_cols), dtype=np.int32)
    X = table[[str(i) for i in ids]].to_numpy(dtype=np.int32).T
    return X, ids, table


def build_golub_leukemia(src, out):
    src = Path(src) / "golub_leukemia"
    X_train, ids_train, table = _golub_split(src / "data_set_ALL_AML_train.csv")
    X_test, ids_test, table_test = _golub_split(src / "data_set_ALL_AML_independent.csv")
    assert (table["Gene Accession Number"] == table_test["Gene Accession Number"]).all()
    labels = pd.read_csv(src / "actual.csv").set_index("patient")["cancer"]
    save_npz(
        out / "golub_leukemia.npz",
        X_train=X_train, y_train=labels.loc[ids_train].to_numpy().astype("U3"),
        X_test=X_test, y_test=labels.loc[ids_test].to_numpy().astype("U3"),
        patient_train=ids_train, patient_test=ids_test,
        accession=table["Gene Accession Number"].to_numpy().astype(str),
        description=table["Gene Description"].to_numpy().astype(str),
    )


def build_alon_colon(src, out):
    """colon-cancer.csv (Bioconductor colonCA via datamicroarray): labels n/t, X1..X2000."""
    table = pd.read_csv(Path(src) / "alon_colon" / "colon-cancer.csv")
    X = table.drop(columns="labels").to_numpy(dtype=np.float64)
    y = table["labels"].to_numpy().astype("U1")
    expect("colon shape", X.shape, (62, 2000))
    expect("colon classes", class_counts(y), {"n": 22, "t": 40})
    save_npz(out / "alon_colon.npz", X=X, y=y,
             feature_names=np.array(table.columns[1:], dtype=str))


# --------------------------------------------------------------------- UCI
def _uci_table(src, folder, filename):
    return pd.read_csv(Path(src) / folder / filename, header=None, na_values="?")


_WDBC_NUCLEUS = ["radius", "texture", "perimeter", "area", "smoothness", "compactness",
                 "concavity", "concave_points", "symmetry", "fractal_dimension"]


def build_uci_wpbc(src, out):
    """id, outcome N/R, time, 30 nucleus features, tumour size, lymph-node status ('?')."""
    t = _uci_table(src, "uci_wpbc", "wpbc.data")
    expect("wpbc shape", t.shape, (198, 35))
    expect("wpbc classes", class_counts(t[1]), {"N": 151, "R": 47})
    expect("wpbc missing", int(t.isna().sum().sum()), 4)
    names = [f"{stat}_{f}" for stat in ("mean", "se", "worst") for f in _WDBC_NUCLEUS]
    save_npz(out / "uci_wpbc.npz", X=t.iloc[:, 3:].to_numpy(np.float64),
             y=t[1].to_numpy().astype("U1"), time=compact(t[2]),
             ids=t[0].to_numpy(np.int64),
             feature_names=np.array(names + ["tumor_size", "lymph_node_status"]))


def build_uci_breast_cancer_wisconsin(src, out):
    """Sample id, 9 cytology scores 1-10 (Bare Nuclei has 16 '?'), class 2/4."""
    t = _uci_table(src, "uci_breast_cancer_wisconsin", "breast-cancer-wisconsin.data")
    expect("bcw shape", t.shape, (699, 11))
    expect("bcw classes", class_counts(t[10]), {"2": 458, "4": 241})
    expect("bcw missing", int(t.isna().sum().sum()), 16)
    names = ["clump_thickness", "uniformity_of_cell_size", "uniformity_of_cell_shape",
             "marginal_adhesion", "single_epithelial_cell_size", "bare_nuclei",
             "bland_chromatin", "normal_nucleoli", "mitoses"]
    save_npz(out / "uci_breast_cancer_wisconsin.npz", X=t.iloc[:, 1:10].to_numpy(np.float64),
             y=compact(t[10]), ids=t[0].to_numpy(np.int64), feature_names=np.array(names))


def build_uci_ionosphere(src, out):
    t = _uci_table(src, "uci_ionosphere", "ionosphere.data")
    expect("ionosphere shape", t.shape, (351, 35))
    expect("ionosphere classes", class_counts(t[34]), {"b": 126, "g": 225})
    save_npz(out / "uci_ionosphere.npz", X=t.iloc[:, :34].to_numpy(np.float64),
             y=t[34].to_numpy().astype("U1"),
             feature_names=np.array([f"a{j:02d}" for j in range(1, 35)]))


def build_uci_sonar(src, out):
    t = _uci_table(src, "uci_sonar", "sonar.all-data")
    expect("sonar shape", t.shape, (208, 61))
    expect("sonar classes", class_counts(t[60]), {"M": 111, "R": 97})
    save_npz(out / "uci_sonar.npz", X=t.iloc[:, :60].to_numpy(np.float64),
             y=t[60].to_numpy().astype("U1"),
             feature_names=np.array([f"band{j:02d}" for j in range(1, 61)]))


def build_uci_heart_cleveland(src, out):
    """13 attributes (ca: 4 '?', thal: 2 '?') and num 0-4."""
    t = _uci_table(src, "uci_heart_cleveland", "processed.cleveland.data")
    expect("cleveland shape", t.shape, (303, 14))
    expect("cleveland num", class_counts(t[13]), {"0": 164, "1": 55, "2": 36, "3": 35, "4": 13})
    expect("cleveland missing", int(t.isna().sum().sum()), 6)
    names = ["age", "sex", "cp", "trestbps", "chol", "fbs", "restecg", "thalach", "exang",
             "oldpeak", "slope", "ca", "thal"]
    save_npz(out / "uci_heart_cleveland.npz", X=t.iloc[:, :13].to_numpy(np.float64),
             y=compact(t[13]), feature_names=np.array(names))


def build_uci_liver_bupa(src, out):
    t = _uci_table(src, "uci_liver_bupa", "liverdisorder.data")
    expect("bupa shape", t.shape, (345, 7))
    expect("bupa selector", class_counts(t[6]), {"1": 145, "2": 200})
    names = ["mcv", "alkphos", "sgpt", "sgot", "gammagt", "drinks"]
    save_npz(out / "uci_liver_bupa.npz", X=t.iloc[:, :6].to_numpy(np.float64), y=compact(t[6]),
             feature_names=np.array(names))


def build_uci_pima(src, out):
    t = _uci_table(src, "uci_pima", "pima.data")
    expect("pima shape", t.shape, (768, 9))
    expect("pima classes", class_counts(t[8]), {"0": 500, "1": 268})
    names = ["pregnancies", "glucose", "blood_pressure", "skin_thickness", "insulin",
             "bmi", "diabetes_pedigree", "age"]
    save_npz(out / "uci_pima.npz", X=t.iloc[:, :8].to_numpy(np.float64), y=compact(t[8]),
             feature_names=np.array(names))


def build_uci_musk1(src, out):
    """molecule name, conformation name, f1..f166 (integers), class 1./0."""
    t = _uci_table(src, "uci_musk1", "clean1.data")
    expect("musk1 shape", t.shape, (476, 169))
    expect("musk1 classes", class_counts(t[168].astype(int)), {"0": 269, "1": 207})
    expect("musk1 molecules", class_counts(t.groupby(0)[168].first().astype(int)),
           {"0": 45, "1": 47})
    save_npz(out / "uci_musk1.npz", X=compact(t.iloc[:, 2:168]), y=compact(t[168]),
             molecule=t[0].to_numpy().astype(str), conformation=t[1].to_numpy().astype(str),
             feature_names=np.array([f"f{j}" for j in range(1, 167)]))


# --------------------------------------------------------------------- NIPS 2003
def _dense_split(folder, name, split):
    X = pd.read_csv(folder / f"{name}_{split}.data", header=None, sep=" ").dropna(axis=1, how="all")
    y = np.loadtxt(folder / f"{name}_{split}.labels")
    return compact(X.to_numpy()), compact(y)


def build_nips2003_dense(src, out, name, n_features, train_counts, valid_counts):
    folder = Path(src) / f"nips2003_{name}"
    X_train, y_train = _dense_split(folder, name, "train")
    X_valid, y_valid = _dense_split(folder, name, "valid")
    expect(f"{name} features", (X_train.shape[1], X_valid.shape[1]), (n_features, n_features))
    expect(f"{name} train classes", class_counts(y_train), train_counts)
    expect(f"{name} valid classes", class_counts(y_valid), valid_counts)
    save_npz(out / f"nips2003_{name}.npz", X_train=X_train, y_train=y_train,
             X_valid=X_valid, y_valid=y_valid)


def build_nips2003_arcene(src, out):
    build_nips2003_dense(src, out, "arcene", 10000, {"-1": 56, "1": 44}, {"-1": 56, "1": 44})


def build_nips2003_madelon(src, out):
    build_nips2003_dense(src, out, "madelon", 500, {"-1": 1000, "1": 1000}, {"-1": 300, "1": 300})


def _sparse_rows(path, binary):
    """NIPS-2003 sparse text (1-based ``index:value`` or bare indices) -> CSR parts."""
    indptr, indices, values = [0], [], []
    for line in Path(path).read_text().splitlines():
        tokens = line.split()
        if binary:
            indices += [int(tok) - 1 for tok in tokens]
        else:
            pairs = [tok.split(":") for tok in tokens]
            indices += [int(i) - 1 for i, _ in pairs]
            values += [float(v) for _, v in pairs]
        indptr.append(len(indices))
    return (np.asarray(indptr, dtype=np.int32), np.asarray(indices, dtype=np.int32),
            compact(values) if not binary else None)


def build_nips2003_dexter(src, out):
    folder = Path(src) / "nips2003_dexter"
    indptr, indices, values = _sparse_rows(folder / "dexter_train.data", binary=False)
    y = compact(np.loadtxt(folder / "dexter_train.labels"))
    expect("dexter rows", indptr.size - 1, 300)
    expect("dexter nnz", indices.size, 28218)
    expect("dexter max index", int(indices.max()) < 20000, True)
    expect("dexter classes", class_counts(y), {"-1": 150, "1": 150})
    save_npz(out / "nips2003_dexter.npz", indptr=indptr, indices=indices, data=values,
             shape=np.array([300, 20000]), y_train=y)


def build_nips2003_dorothea(src, out):
    folder = Path(src) / "nips2003_dorothea_valid_only"
    indptr, indices, _ = _sparse_rows(folder / "dorothea_valid.data", binary=True)
    y = compact(np.loadtxt(folder / "dorothea_valid.labels"))
    expect("dorothea rows", indptr.size - 1, 350)
    expect("dorothea nnz (dorothea.param check-sum)", indices.size, 317752)
    expect("dorothea max index", int(indices.max()) < 100000, True)
    expect("dorothea classes", class_counts(y), {"-1": 316, "1": 34})
    save_npz(out / "nips2003_dorothea_valid.npz", indptr=indptr, indices=indices,
             shape=np.array([350, 100000]), y_valid=y)


# --------------------------------------------------------------------- Haxby 2001
HAXBY_MASKS_25MM = ("brain", "gray", "hoc", "vt", "white")


def _run_labels_from_events(events_tsv, n_volumes, tr=2.5):
    """Per-volume category names of one run from its OpenFMRI events file."""
    events = pd.read_csv(events_tsv, sep="\t")
    labels = np.full(n_volumes, "rest", dtype=object)
    for onset, duration, category in events.itertuples(index=False):
        first = int(round(onset / tr))
        labels[first:first + int(round(duration / tr))] = category
    return labels


def build_haxby2001(src, out):
    """Copy the NIfTI files unchanged; per-volume labels and runs into one npz.

    Checked: the example attributes give 12 contiguous runs of 121 volumes, 108 volumes
    per category and 588 rest; they agree volume by volume with the OpenFMRI events of
    every run (onsets / TR 2.5 s).
    """
    folder = Path(src) / "haxby2001_pymvpa"
    literal = pd.read_csv(folder / "example" / "attributes_literal.txt", sep=" ", header=None)
    labels = literal[0].to_numpy().astype(str)
    runs = literal[1].to_numpy().astype(np.int8) + 1
    expect("haxby volumes", labels.size, 1452)
    expect("haxby runs", class_counts(runs), {str(r): 121 for r in range(1, 13)})
    expect("haxby rest", int((labels == "rest").sum()), 588)
    numeric = np.loadtxt(folder / "example" / "attributes.txt", dtype=int)
    expect("haxby chunks", bool(np.array_equal(numeric[:, 1] + 1, runs)), True)
    bold_dir = folder / "openfmri" / "sub001" / "BOLD"
    for run in range(1, 13):
        from_events = _run_labels_from_events(
            bold_dir / f"task001_run{run:03d}" / "bold_events.tsv", 121)
        same = bool(np.array_equal(from_events, labels[runs == run]))
        expect(f"haxby run {run} labels", same, True)
        shutil.copyfile(bold_dir / f"task001_run{run:03d}" / "bold_25mm.nii.gz",
                        out / f"haxby2001_25mm_bold_run{run:02d}.nii.gz")
    for mask in HAXBY_MASKS_25MM:
        shutil.copyfile(folder / "openfmri" / "sub001" / "masks" / "25mm" / f"{mask}.nii.gz",
                        out / f"haxby2001_25mm_mask_{mask}.nii.gz")
    shutil.copyfile(folder / "example" / "bold.nii.gz", out / "haxby2001_slice_bold.nii.gz")
    shutil.copyfile(folder / "example" / "mask.nii.gz", out / "haxby2001_slice_mask.nii.gz")
    save_npz(out / "haxby2001_attributes.npz", labels=labels, runs=runs)


BUILDERS = [
    build_golub_leukemia, build_alon_colon,
    build_uci_wpbc, build_uci_breast_cancer_wisconsin, build_uci_ionosphere, build_uci_sonar,
    build_uci_heart_cleveland, build_uci_liver_bupa, build_uci_pima, build_uci_musk1,
    build_nips2003_arcene, build_nips2003_madelon, build_nips2003_dexter,
    build_nips2003_dorothea, build_haxby2001,
]


def write_manifest(out):
    manifest = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.iterdir())
        if p.is_file() and p.name != "MANIFEST.json"
    }
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def default_shared_data():
    """The nearest ``shared/data`` folder above the repository (main checkout or worktree)."""
    for parent in ROOT.parents:
        if (parent / "shared" / "data" / "SHA256SUMS").is_file():
            return parent / "shared" / "data"
    return ROOT.parent / "shared" / "data"


def main(src=None, out=OUT):
    """Build every packaged file from the raw data in ``src`` into ``out``."""
    src, out = Path(src or default_shared_data()), Path(out)
    if not (src / "SHA256SUMS").is_file():
        raise SystemExit(f"{src} is not the shared data folder (no SHA256SUMS); pass its path")
    out.mkdir(parents=True, exist_ok=True)
    for build in BUILDERS:
        build(src, out)
    write_manifest(out)


if __name__ == "__main__":
    main(*sys.argv[1:])
