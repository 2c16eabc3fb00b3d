"""No copy of the labels enters X as a feature: a column named like the target (or the
groups) beside it, or the target's own column when a sample sheet supplies the labels."""

import numpy as np
import pytest

from sfmlearn.io import DataFileError, read_labelled

N = 12
LABELS = ["A", "B"] * (N // 2)


def _write(path, header, rows):
    path.write_text(",".join(header) + "\n" + "\n".join(",".join(map(str, r)) for r in rows) + "\n")
    return path


def _table(tmp_path, extra_name, extra_values):
    rng = np.random.default_rng(0)
    rows = [[round(float(v), 3) for v in rng.standard_normal(2)] + [extra_values[i], LABELS[i], i % 3]
            for i in range(N)]
    return _write(tmp_path / "t.csv", ["g1", "g2", extra_name, "class", "batch"], rows)


@pytest.mark.parametrize("copy", ["class ", " class", "Class", "CLASS", "Batch", " batch "])
@pytest.mark.parametrize("values", ["labels", "numbers"])
def test_a_column_named_like_a_label_column_is_refused(tmp_path, copy, values):
    extra = [(0 if v == "A" else 1) for v in LABELS] if values == "labels" else list(range(N))
    path = _table(tmp_path, copy, extra)
    with pytest.raises(DataFileError, match=f"column '{copy}' named like the label column"):
        read_labelled(path, "class", "batch")


@pytest.mark.parametrize("name", ["classic", "class_size", "g3"])
def test_a_column_merely_starting_like_the_target_is_a_feature(tmp_path, name):
    data = read_labelled(_table(tmp_path, name, list(range(N))), "class", "batch")
    assert name in list(data.feature_names) and "class" not in list(data.feature_names)


@pytest.mark.parametrize("column", ["class", "Class ", "batch"])
def test_a_table_that_keeps_the_sheet_label_column_is_refused_naming_the_sheet(tmp_path, column):
    rng = np.random.default_rng(1)
    rows = [[f"s{i}"] + [round(float(v), 3) for v in rng.standard_normal(2)] + [i % 2] for i in range(N)]
    table = _write(tmp_path / "x.csv", ["id", "g1", "g2", column], rows)
    sheet = _write(tmp_path / "sheet.csv", ["id", "class", "batch"],
                   [[f"s{i}", LABELS[i], i % 3] for i in range(N)])
    with pytest.raises(DataFileError, match="that the sample sheet supplies"):
        read_labelled(table, "class", "batch", pheno=sheet, samples_in_columns=False)
