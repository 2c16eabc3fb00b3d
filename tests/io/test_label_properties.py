"""Property: whatever text the labels, group ids and sample ids are, every file format gives them back as written.

Labels include numeric-looking text ("01", "1.0", "1e3", "-0", " 1") next to random
Unicode; a label is never one of the cells that mean "missing"
(:data:`sfmlearn.io.labels.MISSING_TEXT` and blank cells), which every reader refuses instead.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sfmlearn.io import read_labelled
from sfmlearn.io.labels import MISSING_TEXT

NUMERIC_LOOKING = st.sampled_from(["01", "1", "1.0", "1.", "1e3", "1E3", "007", "7.0", "0.5", "0.50", "-0", "+1",
                                   "inf", "-inf", "1_000", "0x1F", "True", "false", " 1", "1 ", "1,5", "١"])
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Cf", "Zl", "Zp")), min_size=1, max_size=6)
LABEL = (NUMERIC_LOOKING | TEXT).filter(lambda t: t.strip() not in MISSING_TEXT)
#: Ids are matched without surrounding spaces, so they are written without them.
ID = (NUMERIC_LOOKING | TEXT).map(str.strip).filter(
    lambda t: t not in MISSING_TEXT and t != "probe" and not t.startswith("Unnamed: "))
FORMATS = [".csv", ".tsv", ".npz", ".parquet", ".h5ad", "sheet"]
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _write(folder, fmt, labels, groups):
    """``labels`` (and ``groups``) with two features in format ``fmt``; the read_labelled arguments."""
    X = np.arange(2.0 * len(labels)).reshape(-1, 2)
    frame = pd.DataFrame(X, columns=["f1", "f2"]).assign(cls=labels, grp=groups)
    if fmt in (".csv", ".tsv"):
        frame.to_csv(folder / f"data{fmt}", index=False, sep="\t" if fmt == ".tsv" else ",")
        return [folder / f"data{fmt}", "cls", "grp"], {}
    if fmt == ".npz":
        np.savez(folder / "data.npz", X=X, y=np.array(labels))
        return [folder / "data.npz"], {}
    if fmt == ".parquet":
        pytest.importorskip("pyarrow")
        frame.to_parquet(folder / "data.parquet")
        return [folder / "data.parquet", "cls", "grp"], {}
    if fmt == ".h5ad":
        anndata = pytest.importorskip("anndata")
        obs = frame[["cls", "grp"]].set_axis([f"s{i}" for i in range(len(labels))])
        anndata.AnnData(X=X, obs=obs).write_h5ad(folder / "data.h5ad")
        return [folder / "data.h5ad", "obs:cls", "obs:grp"], {}
    ids = [f"s{i}" for i in range(len(labels))]
    frame.drop(columns=["cls", "grp"]).assign(id=ids)[["id", "f1", "f2"]].to_csv(folder / "rows.csv", index=False)
    pd.DataFrame({"id": ids, "cls": labels, "grp": groups}).to_csv(folder / "sheet.csv", index=False)
    return [folder / "rows.csv", "cls", "grp"], {"pheno": folder / "sheet.csv"}


@PROPERTY
@given(labels=st.lists(LABEL, min_size=1, max_size=10), groups=st.lists(ID, min_size=10, max_size=10),
       fmt=st.sampled_from(FORMATS))
def test_labels_and_groups_come_back_as_written(tmp_path_factory, labels, groups, fmt):
    folder = tmp_path_factory.mktemp("labels")
    groups = groups[:len(labels)]
    args, options = _write(folder, fmt, labels, groups)
    data = read_labelled(*args, **options)
    assert data.y.tolist() == labels
    assert set(data.classes) == set(labels)
    if len(args) == 3:
        assert data.groups.tolist() == groups


@PROPERTY
@given(ids=st.lists(ID, min_size=1, max_size=8, unique=True), samples_in_columns=st.booleans())
def test_sample_ids_come_back_as_written(tmp_path_factory, ids, samples_in_columns):
    folder = tmp_path_factory.mktemp("ids")
    shuffled = ids[::-1]  # the sheet's order must not matter
    pd.DataFrame({"sample": shuffled, "cls": [f"c{len(i) % 2}" for i in shuffled]}).to_csv(
        folder / "sheet.csv", index=False)
    values = np.arange(2.0 * len(ids)).reshape(len(ids), 2)
    if samples_in_columns:
        pd.DataFrame(values.T, columns=ids).assign(probe=["p1", "p2"])[["probe", *ids]].to_csv(
            folder / "data.csv", index=False)
    else:
        pd.DataFrame({"id": ids, "f1": values[:, 0], "f2": values[:, 1]}).to_csv(folder / "data.csv", index=False)
    data = read_labelled(folder / "data.csv", "cls", pheno=folder / "sheet.csv",
                         samples_in_columns=samples_in_columns)
    assert data.sample_ids.tolist() == ids
    assert data.y.tolist() == [f"c{len(i) % 2}" for i in ids]
    np.testing.assert_array_equal(data.X, values)
