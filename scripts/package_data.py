"""Build the compact data files shipped inside the package from ../shared/data.

Run from the repository root: ``python scripts/package_data.py [SHARED_DATA_DIR]``.
The raw files (with their provenance and checksums) live outside the repository; this
script documents exactly how each packaged file was derived from them, and
``sfmlearn/datasets/data/MANIFEST.json`` records the SHA-256 of every packaged file,
checked by the test suite.
"""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "sfmlearn" / "datasets" / "data"


def _golub_split(path):
    """Gene x patient CSV (Kaggle layout) -> (patients x genes int32, patient ids)."""
    table = pd.read_csv(path)
    patient_cols = [c for c in table.columns if c.isdigit()]
    ids = np.array(sorted(int(c) for c in patient_cols), dtype=np.int32)
    X = table[[str(i) for i in ids]].to_numpy(dtype=np.int32).T
    return X, ids, table


def build_golub_leukemia(src):
    src = Path(src) / "golub_leukemia"
    X_train, ids_train, table = _golub_split(src / "data_set_ALL_AML_train.csv")
    X_test, ids_test, table_test = _golub_split(src / "data_set_ALL_AML_independent.csv")
    assert (table["Gene Accession Number"] == table_test["Gene Accession Number"]).all()
    labels = pd.read_csv(src / "actual.csv").set_index("patient")["cancer"]
    np.savez_compressed(
        OUT / "golub_leukemia.npz",
        X_train=X_train, y_train=labels.loc[ids_train].to_numpy().astype("U3"),
        X_test=X_test, y_test=labels.loc[ids_test].to_numpy().astype("U3"),
        patient_train=ids_train, patient_test=ids_test,
        accession=table["Gene Accession Number"].to_numpy().astype(str),
        description=table["Gene Description"].to_numpy().astype(str),
    )


BUILDERS = [build_golub_leukemia]


def write_manifest():
    manifest = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(OUT.iterdir())
        if p.is_file() and p.name != "MANIFEST.json"
    }
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def main(src=ROOT.parent / "shared" / "data"):
    OUT.mkdir(parents=True, exist_ok=True)
    for build in BUILDERS:
        build(src)
    write_manifest()


if __name__ == "__main__":
    main(*sys.argv[1:])
