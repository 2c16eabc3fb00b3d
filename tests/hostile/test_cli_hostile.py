"""Hostile command lines: every subcommand against quirky files, bad flags and dangerous outputs.

Each row of ``CASES`` is one command line with the files it needs. A bad input must end
with exit code 2 (1 where the method has no answer), exactly one line on stderr that
starts with ``sfmlearn: error:`` and contains the row's fragment (which names the
problem), no traceback, nothing on stdout, and every file in the folder exactly as it
was (no file overwritten, created or left half-written). A legitimate but quirky input
must give exit code 0 and leave the existing files as they were; its ``check`` looks
at the result. Everything runs in-process on tiny data (``--cv 0``, ``--quiet``);
tests/cli/test_stdout.py runs the end-to-end subprocess cases.
"""

import errno
import json
import os
from dataclasses import dataclass, field

import nibabel as nib
import numpy as np
import pandas as pd
import pytest
from PIL import Image

from sfmlearn.cli import main

OK = 0


# ----------------------------------------------------------------------------- data

def _frame(n=12, seed=0):
    """12 samples, classes a/b alternating, feature p separates them, groups g = 1..4."""
    rng = np.random.default_rng(seed)
    y = np.array(["a", "b"] * (n // 2))
    X = rng.standard_normal((n, 4))
    X[:, 0] += np.where(y == "a", 3.0, -3.0)
    frame = pd.DataFrame(X, columns=["p", "q", "r", "s"])
    frame["y"] = y
    frame["g"] = np.repeat(np.arange(1, 5), n // 4)
    return frame


def csv(change=None, sep=",", **options):
    """A table of _frame() (optionally changed) written with DataFrame.to_csv."""
    def write(path):
        frame = _frame() if change is None else change(_frame())
        frame.to_csv(path, sep=sep, **{"index": False, **options})
    return write


def text(content, encoding="utf-8"):
    return lambda path: path.write_text(content, encoding=encoding)


def raw(content):
    return lambda path: path.write_bytes(content)


def npz(**arrays):
    def write(path):
        frame = _frame()
        defaults = {"X": frame[["p", "q", "r", "s"]].to_numpy(), "y": frame["y"].to_numpy(dtype=str)}
        with open(path, "wb") as handle:  # np.savez would append .npz to other names
            np.savez(handle, **{k: v for k, v in {**defaults, **arrays}.items() if v is not None})
    return write


def npy(array):
    def write(path):
        with open(path, "wb") as handle:  # np.save would append .npy to the name
            np.save(handle, array)
    return write


def parquet(names=None):
    def write(path):
        import pyarrow as pa
        import pyarrow.parquet as pq
        frame = _frame()
        names_ = names or list(frame.columns)
        pq.write_table(pa.Table.from_arrays([pa.array(frame[c]) for c in frame.columns], names=names_), path)
    return write


def png(shape=(40, 40), frames=1):
    def write(path):
        pictures = [Image.fromarray((np.arange(np.prod(shape)) % 251).astype(np.uint8).reshape(shape))
                    for _ in range(frames)]
        pictures[0].save(path, save_all=frames > 1, append_images=pictures[1:])
    return write


def nifti(shape=(4, 4, 4), value=None):
    def write(path):
        data = np.random.default_rng(0).random(shape).astype(np.float32) if value is None \
            else np.full(shape, value, np.float32)
        nib.save(nib.Nifti1Image(data, np.eye(4)), path)
    return write


def mask_nifti(path):
    data = np.zeros((4, 4, 4), np.uint8)
    data[1:3, 1:3, 1:3] = 1
    nib.save(nib.Nifti1Image(data, np.eye(4)), path)


def directory(path):
    path.mkdir()


def link(target):
    return lambda path: path.symlink_to(path.parent / target)


def hard_link(target):
    return lambda path: os.link(path.parent / target, path)


def summary(content):
    """A result folder with summary.json and a PNG and a CSV; ``content`` is the JSON text, a
    dict to dump, or a function of the folder's parent returning the dict."""
    def write(path):
        path.mkdir()
        value = content(path.parent) if callable(content) else content
        (path / "summary.json").write_text(value if isinstance(value, str) else json.dumps(value))
        png((8, 8))(path / "a.png")
        pd.DataFrame({"k": [1, 2]}).to_csv(path / "t.csv", index=False)
    return write


def fmri_table(change=None):
    """mask.nii.gz, 8 maps and table.csv (image, label, participant) for sfmlearn fmri."""
    def write(path):
        mask_nifti(path.parent / "mask.nii.gz")
        rows = []
        for p in range(2):
            for i, label in enumerate(["a", "b", "a", "b"]):
                name = f"img{p}{i}.nii.gz"
                nifti()(path.parent / name)
                rows.append({"image": name, "label": label, "participant": p})
        frame = pd.DataFrame(rows)
        (frame if change is None else change(frame)).to_csv(path, index=False)
    return write


# ----------------------------------------------------------------------------- the table

@dataclass
class Case:
    id: str
    argv: list
    files: dict = field(default_factory=dict)
    code: int = 2
    fragment: str = ""  # error cases: in the one stderr line; ok cases: in stderr (a warning)
    check: object = None  # ok cases: called with (stdout, tmp_path)
    setup: object = None  # called with (tmp_path, env) before the run


def _select(path="data.csv", *extra, target="y"):
    return ["select", f"{{d}}/{path}", "--cv", "0", "--quiet"] + (["--target", target] if target else []) \
        + list(extra)


def _select_json(path="data.csv", *extra, target="y"):
    """A select command that should succeed and print its result as JSON."""
    return _select(path, *extra, "--json", target=target)


def _json_result(check):
    return lambda out, tmp: check(json.loads(out))


SELECTED_P = _json_result(lambda r: r["n_features"] == 5 and [s["name"] for s in r["selected"]] == ["p"])

SELECT_FILES = [
    Case("duplicate label column", _select(), {"data.csv": csv(lambda f: f.assign(p=f["y"]).rename(
        columns={"p": "y"}))}, fragment="duplicate column names (y)"),
    Case("duplicate feature columns", _select(), {"data.csv": csv(lambda f: f.rename(columns={"q": "p"}))},
         fragment="duplicate column names (p)"),
    Case("duplicate columns tsv", _select("data.tsv"), {"data.tsv": csv(
        lambda f: f.rename(columns={"q": "p"}), sep="\t")}, fragment="duplicate column names (p)"),
    Case("duplicate columns parquet", _select("data.parquet"),
         {"data.parquet": parquet(["p", "q", "p", "s", "y", "g"])}, fragment="duplicate column names (p)"),
    Case("duplicate feature names npz", _select("data.npz", target=None),
         {"data.npz": npz(feature_names=np.array(["a", "b", "a", "c"]))}, fragment="duplicate feature names (a)"),
    Case("pandas index column", _select_json(), {"data.csv": csv(index=True)}, OK, "row index", SELECTED_P),
    Case("shuffled index column", _select_json(), {"data.csv": csv(lambda f: f.sample(frac=1, random_state=1),
                                                              index=True)}, OK, "row index", SELECTED_P),
    Case("R row names", _select_json(), {"data.csv": csv(lambda f: f.set_axis([f"s{i}" for i in range(12)]),
                                                    index=True)}, OK, "row names", SELECTED_P),
    Case("unnamed measurement column", _select_json(), {"data.csv": csv(lambda f: f.set_axis(
        ["", "q", "r", "s", "y", "g"], axis=1))}, OK,
         check=_json_result(lambda r: r["selected"][0]["name"] == "Unnamed: 0")),
    Case("utf-16 with byte-order mark", _select_json(), {"data.csv": csv(encoding="utf-16")}, OK, check=SELECTED_P),
    Case("utf-8 byte-order mark", _select_json(), {"data.csv": csv(encoding="utf-8-sig")}, OK, check=SELECTED_P),
    Case("latin-1 text", _select(), {"data.csv": csv(lambda f: f.rename(columns={"q": "qé"}),
                                                     encoding="latin-1")}, fragment="is not UTF-8 text"),
    Case("binary garbage as csv", _select(), {"data.csv": raw(b"p,y\n\x80\x81,\xfe\n" * 20)},
         fragment="is not UTF-8 text"),
    Case("empty file", _select(), {"data.csv": text("")}, fragment="is empty"),
    Case("blank lines only", _select(), {"data.csv": text("\n\n\n")}, fragment="is empty"),
    Case("header only", _select(), {"data.csv": text("p,q,y\n")}, fragment="header but no data rows"),
    Case("one class", _select(), {"data.csv": csv(lambda f: f.assign(y="a"))}, fragment="hold 1 class(es) (a)"),
    Case("three classes", _select(), {"data.csv": csv(lambda f: f.assign(y=list("abc") * 4))},
         fragment="hold 3 class(es) (a, b, c)"),
    Case("missing label", _select(), {"data.csv": csv(lambda f: f.assign(y=f["y"].where(f.index != 3)))},
         fragment="1 sample(s) have no label"),
    Case("missing feature value", _select(), {"data.csv": csv(lambda f: f.assign(q=f["q"].where(f.index != 2)))},
         fragment="1 missing value(s) in column(s) q"),
    Case("infinite value", _select(), {"data.csv": csv(lambda f: f.assign(r=f["r"].where(f.index != 2, np.inf)))},
         fragment="1 infinite value(s) in column(s) r"),
    Case("minus infinity", _select(), {"data.csv": text("p,y\n-inf,a\n1,b\n2,a\n3,b\n")},
         fragment="1 infinite value(s) in column(s) p"),
    Case("huge values", _select(), {"data.csv": csv(lambda f: f.assign(s=f["s"] * 1e300))}, OK),
    Case("text feature column", _select(), {"data.csv": csv(lambda f: f.assign(q="x"))},
         fragment="not numeric (q)"),
    Case("semicolon separators", _select(), {"data.csv": csv(sep=";")}, fragment="looks separated by ';'"),
    Case("trailing separators", _select(), {"data.csv": text("p,y\n1,a,\n2,b,\n3,a,\n4,b,\n")},
         fragment="more values than the header"),
    Case("ragged row", _select(), {"data.csv": text("p,q,y\n1,2,a\n1,2,3,4,b\n")},
         fragment="not a rectangular table"),
    Case("excel extension", _select("data.xlsx"), {"data.xlsx": csv()}, fragment="unknown file type '.xlsx'"),
    Case("json extension", _select("data.json"), {"data.json": text("{}")}, fragment="unknown file type"),
    Case("no extension", _select("data"), {"data": csv()}, fragment="unknown file type"),
    Case("directory as data", _select("folder"), {"folder": directory}, fragment="is a directory"),
    Case("missing file", _select("nothing.csv"), fragment="no such file"),
    Case("garbage parquet", _select("data.parquet"), {"data.parquet": raw(b"garbage" * 10)},
         fragment="not a readable Parquet file"),
    Case("parquet named csv", _select(), {"data.csv": parquet()}, fragment="looks like a Parquet file"),
    Case("npz named csv", _select(), {"data.csv": npz()}, fragment="looks like a ZIP archive"),
    Case("csv named parquet", _select("data.parquet"), {"data.parquet": csv()},
         fragment="not a readable Parquet file"),
    Case("csv named npz", _select("data.npz", target=None), {"data.npz": csv()},
         fragment="not a readable .npz archive"),
    Case("npy named npz", _select("data.npz", target=None), {"data.npz": npy(np.eye(3))},
         fragment="holds a single array"),
    Case("npz object X", _select("data.npz", target=None),
         {"data.npz": npz(X=np.array([[1, "a"], [2, "b"]], dtype=object), y=np.array([0, 1]))},
         fragment="array 'X' holds Python objects"),
    Case("npz object y", _select("data.npz", target=None),
         {"data.npz": npz(y=np.array(["a", None] * 6, dtype=object))}, fragment="array 'y' holds Python objects"),
    Case("npz 2-D y", _select("data.npz", target=None), {"data.npz": npz(y=np.zeros((12, 2)))},
         fragment="'y' must be 1-D"),
    Case("npz zero samples", _select("data.npz", target=None), {"data.npz": npz(X=np.zeros((0, 3)), y=np.zeros(0))},
         fragment="has 0 samples"),
    Case("npz wrong number of names", _select("data.npz", target=None),
         {"data.npz": npz(feature_names=np.array(["a", "b"]))}, fragment="feature_names has 2 entries for 4"),
    Case("npz without X", _select("data.npz", target=None), {"data.npz": npz(X=None, features=np.eye(12))},
         fragment="has no array 'X'"),
    Case("npz without y", _select("data.npz", target=None), {"data.npz": npz(y=None, labels=np.zeros(12))},
         fragment="has no label array 'y'"),
    Case("npz missing target array", _select("data.npz", target="zz"), {"data.npz": npz()},
         fragment="--target zz: data.npz has no label array 'zz'"),
    Case("npz 1-D X", _select("data.npz", target=None), {"data.npz": npz(X=np.zeros(12))},
         fragment="X must be 2-D"),
    Case("npz text X", _select("data.npz", target=None), {"data.npz": npz(X=np.full((12, 2), "x"))},
         fragment="X must be numeric"),
    Case("npz length mismatch", _select("data.npz", target=None), {"data.npz": npz(y=np.array(["a", "b"] * 5))},
         fragment="X has 12 rows but 'y' has 10 labels"),
    Case("npz with groups", _select("data.npz", "--groups", "g", target=None), {"data.npz": npz()},
         fragment="--groups needs a table"),
    Case("npz legitimate", _select_json("data.npz", target=None), {"data.npz": npz()}, OK,
         check=_json_result(lambda r: [s["name"] for s in r["selected"]] == ["x0"])),
    Case("gzip csv legitimate", _select_json("data.csv.gz"), {"data.csv.gz": csv()}, OK, check=SELECTED_P),
    Case("gzip tsv legitimate", _select_json("data.tsv.gz"), {"data.tsv.gz": csv(sep="\t")}, OK, check=SELECTED_P),
    Case("corrupt gzip", _select("data.csv.gz"), {"data.csv.gz": raw(b"not gzip")},
         fragment="cannot be decompressed"),
    Case("boolean and integer features", _select_json(), {"data.csv": csv(lambda f: f.assign(
        q=f.index % 3 == 0, r=f.index % 4))}, OK, check=SELECTED_P),
    Case("numeric labels", _select_json(), {"data.csv": csv(lambda f: f.assign(y=(f["y"] == "b").astype(int)))}, OK,
         check=_json_result(lambda r: r["classes"] == ["0", "1"])),
    Case("no target given", _select(target=None), {"data.csv": csv()}, fragment="--target COLUMN is required"),
    Case("target not a column", _select(target="label"), {"data.csv": csv()}, fragment="no column 'label'"),
    Case("groups not a column", _select("data.csv", "--groups", "site"), {"data.csv": csv()},
         fragment="no column 'site' (given as --groups)"),
    Case("groups equal target", _select("data.csv", "--groups", "y"), {"data.csv": csv()},
         fragment="--groups and --target both name 'y'"),
    Case("missing group id", _select("data.csv", "--groups", "g", "--cv", "2"),
         {"data.csv": csv(lambda f: f.assign(g=f["g"].where(f.index != 5)))}, fragment="1 sample(s) have no group id"),
    Case("file and dataset", _select("data.csv", "--dataset", "leukemia"), {"data.csv": csv()},
         fragment="either a file or --dataset"),
    Case("neither file nor dataset", ["select", "--cv", "0"], fragment="give a data file"),
    Case("dataset with groups", ["select", "--dataset", "leukemia", "--groups", "g"],
         fragment="--groups applies to files"),
    Case("dataset with target", ["select", "--dataset", "leukemia", "--target", "y"],
         fragment="--target applies to files"),
    Case("not separable hard", _select(), {"data.csv": csv(lambda f: f.assign(p=f["q"]))}, 1,
         fragment="not linearly separable in the training data, so the hard method has no solution; allow "
                  "training errors with a softness, e.g. --C 1"),
    Case("not separable soft is fine", _select("data.csv", "--C", "1"),
         {"data.csv": csv(lambda f: f.assign(p=f["q"]))}, OK),
    Case("one sample per class with cv", _select("data.csv", "--cv", "2"),
         {"data.csv": csv(lambda f: f.iloc[:3])}, fragment="the smallest class has 1 sample"),
    Case("single group with cv", _select("data.csv", "--groups", "g", "--cv", "2"),
         {"data.csv": csv(lambda f: f.assign(g=7))}, fragment="all samples are in one group"),
]

SELECT_FLAGS = [
    Case(f"select {flag} {value}", _select("data.csv", flag, value), {"data.csv": csv()}, fragment=fragment)
    for flag, value, fragment in [
        ("--cv", "1", "--cv must be 0 (skip cross-validation) or at least 2"),
        ("--cv", "-1", "--cv must be 0"),
        ("--cv", "abc", "--cv expected a whole number"),
        ("--random-state", "-1", "--random-state must lie between 0 and 4294967295"),
        ("--random-state", str(2**32), "--random-state must lie between"),
        ("--n-jobs", "0", "--n-jobs must be a number of parallel jobs"),
        ("--C", "0", "--C must be a finite positive number"),
        ("--C", "-1", "--C must be a finite positive number"),
        ("--C", "nan", "--C must be a finite positive number"),
        ("--C", "inf", "--C must be a finite positive number"),
        ("--C", "soft", "--C expected a number"),
        ("--chance", "-1", "--chance must be 0 or more"),
        ("--method", "lasso", "--method invalid choice: 'lasso'"),
        ("--class-weight", "auto", "--class-weight invalid choice"),
        ("--colour", "red", "unrecognized arguments: --colour red"),
    ]
]

SELECT_OUTPUTS = [
    Case("report is the input", _select("data.csv", "--report", "{d}/data.csv"), {"data.csv": csv()},
         fragment="is the input"),
    Case("report is a hard link to the input", _select("data.csv", "--report", "{d}/copy.html"),
         {"data.csv": csv(), "copy.html": hard_link("data.csv")}, fragment="is the input"),
    Case("report is a link to the input", _select("data.csv", "--report", "{d}/link.html"),
         {"data.csv": csv(), "link.html": link("data.csv")}, fragment="is the input"),
    Case("report is a link elsewhere", _select("data.csv", "--report", "{d}/link.html"),
         {"data.csv": csv(), "other.html": text("mine"), "link.html": link("other.html")},
         fragment="is a symbolic link"),
    Case("report is a directory", _select("data.csv", "--report", "{d}/out"), {"data.csv": csv(), "out": directory},
         fragment="is a directory"),
    Case("report folder missing", _select("data.csv", "--report", "{d}/no/r.html"), {"data.csv": csv()},
         fragment="folder {d}/no does not exist"),
    Case("report named csv", _select("data.csv", "--report", "{d}/r.csv"), {"data.csv": csv()},
         fragment="must end in .html or .htm"),
    Case("report folder read-only", _select("data.csv", "--report", "{d}/locked/r.html"),
         {"data.csv": csv(), "locked": directory}, fragment="cannot write into",
         setup=lambda tmp, env: env["read_only"](tmp / "locked")),
    Case("unreadable input", _select(), {"data.csv": csv()}, fragment="data.csv: Permission denied",
         setup=lambda tmp, env: env["unreadable"](tmp / "data.csv")),
    Case("report replaces an old report", _select("data.csv", "--report", "{d}/old.html", "--overwrite"),
         {"data.csv": csv(), "old.html": text("old")}, OK,
         check=lambda out, tmp: "Feature selection" in (tmp / "old.html").read_text()),
]

def expression(change=None):
    """_frame() as an expression matrix (features in rows, samples s1..s12 in columns, a Gene
    Symbol column) beside pheno.csv (sample, y, g); ``change`` gets and returns (matrix, sheet)."""
    def write(path):
        frame = _frame().set_axis([f"s{i + 1}" for i in range(12)])
        matrix = frame[["p", "q", "r", "s"]].T.rename_axis("probe").reset_index()
        matrix.insert(1, "Gene Symbol", ["TP53", "BRCA1", "MYC", "EGFR"])
        sheet = frame[["y", "g"]].rename_axis("sample").reset_index()
        matrix, sheet = (matrix, sheet) if change is None else change(matrix, sheet)
        matrix.to_csv(path, index=False)
        sheet.to_csv(path.parent / "pheno.csv", index=False)
    return write


def series_matrix(table_cell="1.5"):
    """A 4-sample GEO series matrix with the characteristic 'disease state'."""
    def write(path):
        q = lambda values: "\t".join(f'"{v}"' for v in values)  # noqa: E731
        ids = ["GSM1", "GSM2", "GSM3", "GSM4"]
        lines = ['!Series_title\t"t"', "!Sample_geo_accession\t" + q(ids),
                 "!Sample_characteristics_ch1\t" + q(["disease state: x", "disease state: y"] * 2),
                 "!Sample_characteristics_ch1\t" + q(["tissue: blood"] * 4),
                 "!series_matrix_table_begin", '"ID_REF"\t' + q(ids),
                 '"p1"\t1\t-1\t2\t' + table_cell, '"p2"\t0.5\t0.1\t0.2\t0.3', "!series_matrix_table_end"]
        path.write_text("\n".join(lines) + "\n")
    return write


def h5ad(path):
    anndata = pytest.importorskip("anndata")
    frame = _frame()
    anndata.AnnData(X=frame[["p", "q", "r", "s"]].to_numpy(), obs=pd.DataFrame(
        {"condition": frame["y"].to_numpy()}, index=[f"c{i}" for i in range(12)])).write_h5ad(path)


def _matrix(*extra, target="y"):
    return ["select", "{d}/expr.csv", "--samples-in-columns", "--pheno", "{d}/pheno.csv", "--target", target,
            "--cv", "0", "--quiet", *extra]


OMICS = [
    Case("matrix legitimate", _matrix("--json", "--groups", "g"), {"expr.csv": expression()}, OK,
         check=_json_result(lambda r: r["selected"][0]["annotations"] == {"Gene Symbol": "TP53"})),
    Case("matrix sample missing from sheet", _matrix(), {"expr.csv": expression(lambda m, s: (m, s[s["sample"] != "s3"]))},
         fragment="do not match by id (in expr.csv only: s3)"),
    Case("sheet sample missing from matrix", _matrix(), {"expr.csv": expression(lambda m, s: (m.drop(columns="s4"), s))},
         fragment="in pheno.csv only: s4"),
    Case("sheet duplicated sample id", _matrix(),
         {"expr.csv": expression(lambda m, s: (m, s.assign(sample=s["sample"].replace("s2", "s1"))))},
         fragment="duplicated sample id(s) s1"),
    Case("matrix text cell", _matrix(),
         {"expr.csv": expression(lambda m, s: (m.assign(s5=m["s5"].astype(object).where(m.index != 1, "high")), s))},
         fragment="a matrix cell is not a number (sample 's5' at feature 'q' holds 'high'"),
    Case("matrix duplicated feature ids", _matrix(),
         {"expr.csv": expression(lambda m, s: (m.assign(probe=["p", "p", "r", "s"]), s))},
         fragment="duplicate feature id names (p)"),
    Case("sheet without target column", _matrix(target="class"), {"expr.csv": expression()},
         fragment="--target class: sample sheet pheno.csv has no column 'class'. Columns: y, g"),
    Case("sheet missing", ["select", "{d}/data.csv", "--pheno", "{d}/none.csv", "--target", "y"],
         {"data.csv": csv()}, fragment="no such file: {d}/none.csv"),
    Case("samples in columns without sheet", _select("data.csv", "--samples-in-columns"), {"data.csv": csv()},
         fragment="--samples-in-columns needs --pheno SHEET"),
    Case("layer on a table", _select("data.csv", "--layer", "counts"), {"data.csv": csv()},
         fragment="--layer applies to AnnData .h5ad files"),
    Case("classes unknown", _select("data.csv", "--classes", "a", "z"), {"data.csv": csv()},
         fragment="--classes: data.csv has no class z; its classes are a, b"),
    Case("classes with dataset", ["select", "--dataset", "leukemia", "--classes", "ALL", "AML"],
         fragment="--classes applies to files"),
    Case("classes three of which two", _select_json("data.csv", "--classes", "c", "a"),
         {"data.csv": csv(lambda f: f.assign(y=list("abc") * 4, p=np.tile([3.0, 0.0, -3.0], 4)))}, OK,
         check=_json_result(lambda r: r["classes"] == ["a", "c"] and r["n_samples"] == 8)),
    Case("report over the sheet", _matrix("--report", "{d}/pheno.csv"), {"expr.csv": expression()},
         fragment="is the input"),
    Case("geo unknown key", _select("GSE1_series_matrix.txt", target="diagnosis"),
         {"GSE1_series_matrix.txt": series_matrix()},
         fragment="has no such characteristic; the keys are disease state, tissue"),
    Case("geo text cell", _select("GSE1_series_matrix.txt", target="disease state"),
         {"GSE1_series_matrix.txt": series_matrix('"oops"')},
         fragment="a matrix cell is not a number (sample 'GSM4' at probe 'p1' holds 'oops'"),
    Case("h5ad missing obs column", _select("data.h5ad", target="obs:cell_type"), {"data.h5ad": h5ad},
         fragment="--target obs:cell_type: data.h5ad has no obs column 'cell_type'. obs columns: condition"),
    Case("h5ad missing layer", _select("data.h5ad", "--layer", "counts", target="obs:condition"),
         {"data.h5ad": h5ad}, fragment="--layer counts: data.h5ad has no such layer; layers: none"),
    Case("garbage h5ad", _select("data.h5ad", target="obs:condition"), {"data.h5ad": raw(b"garbage" * 10)},
         fragment="is not a readable AnnData .h5ad file", setup=lambda tmp, env: pytest.importorskip("anndata")),
]

REPEAT = [
    Case("repeat single group", ["repeat", "{d}/data.csv", "--target", "y", "--groups", "g", "--quiet"],
         {"data.csv": csv(lambda f: f.assign(g=1))}, fragment="all samples are in one group (1)"),
    Case("repeat missing group id", ["repeat", "{d}/data.csv", "--target", "y", "--groups", "g", "--quiet"],
         {"data.csv": csv(lambda f: f.assign(g=f["g"].where(f.index != 0)))}, fragment="have no group id"),
    Case("repeat two groups", ["repeat", "{d}/data.csv", "--target", "y", "--groups", "g", "--quiet"],
         {"data.csv": csv(lambda f: f.assign(g=f.index % 2))}, fragment="needs at least 3 groups; got 2"),
    Case("repeat tiny classes", ["repeat", "{d}/data.csv", "--target", "y", "--quiet"],
         {"data.csv": csv(lambda f: f.iloc[:4])}, fragment="too few for the estimate's nested cross-validation"),
    Case("repeat not separable", ["repeat", "{d}/data.csv", "--target", "y", "--quiet", "--no-estimate"],
         {"data.csv": csv(lambda f: f.assign(p=f["q"]))}, 1, fragment="finds nothing; allow training errors "
                                                                       "with a softness, e.g. --C 1"),
    Case("repeat report is the input", ["repeat", "{d}/data.csv", "--target", "y", "--report", "{d}/data.csv"],
         {"data.csv": csv()}, fragment="is the input"),
    Case("repeat tiny ok", ["repeat", "{d}/data.csv", "--target", "y", "--quiet", "--no-estimate", "--json"],
         {"data.csv": csv()}, OK, check=_json_result(lambda r: r["subsets"][0] == ["p"])),
] + [
    Case(f"repeat {flag} {value}", ["repeat", "{d}/data.csv", "--target", "y", flag, value], {"data.csv": csv()},
         fragment=fragment)
    for flag, value, fragment in [
        ("--cv", "1", "--cv must be at least 2"),
        ("--every", "0", "--every must be at least 1"),
        ("--top", "0", "--top must be at least 1"),
        ("--max-repetitions", "0", "--max-repetitions must be at least 1"),
        ("--aggregate", "mode", "--aggregate invalid choice"),
        ("--n-jobs", "0", "--n-jobs must be a number of parallel jobs"),
        ("--random-state", "-3", "--random-state must lie between"),
    ]
]


def _fmri(*extra, data=("--table", "{d}/table.csv", "--mask", "{d}/mask.nii.gz")):
    return ["fmri", *data, "--out", "{d}/out", "--quiet", *extra]


SIM = ("--simulate", "buttonpress", "--grid-level", "2", "--participants", "2", "--runs", "1")

FMRI = [
    Case("fmri out is a file", ["fmri", "--simulate", "buttonpress", "--out", "{d}/data.csv"], {"data.csv": csv()},
         fragment="--out {d}/data.csv is a file, not a folder"),
    Case("fmri out below a file", ["fmri", "--simulate", "buttonpress", "--out", "{d}/data.csv/sub"],
         {"data.csv": csv()}, fragment="is a file, so the folder cannot be created"),
    Case("fmri table empty", _fmri(), {"table.csv": text(""), "mask.nii.gz": mask_nifti}, fragment="is empty"),
    Case("fmri table header only", _fmri(), {"table.csv": text("image,label,participant\n"),
                                             "mask.nii.gz": mask_nifti}, fragment="has no rows"),
    Case("fmri table missing column", _fmri(), {"table.csv": fmri_table(lambda t: t.drop(columns="participant"))},
         fragment="has no column 'participant'"),
    Case("fmri table empty label", _fmri(), {"table.csv": fmri_table(lambda t: t.assign(
        label=t["label"].where(t.index != 2)))}, fragment="column 'label' is empty in 1 row"),
    Case("fmri table missing image", _fmri(), {"table.csv": fmri_table(lambda t: t.assign(
        image=t["image"].where(t.index != 0, "gone.nii.gz")))}, fragment="gone.nii.gz: no such file"),
    Case("fmri table duplicate columns", _fmri(), {"table.csv": fmri_table(lambda t: t.set_axis(
        ["image", "label", "label"], axis=1))}, fragment="duplicate column names (label)"),
    Case("fmri mask garbage", _fmri(), {"table.csv": fmri_table(), "bad.nii.gz": raw(b"garbage")},
         fragment="not a readable NIfTI image",
         setup=lambda tmp, env: (tmp / "bad.nii.gz").replace(tmp / "mask.nii.gz")),
    Case("fmri labels count", _fmri(data=("--images", "{d}/img00.nii.gz", "{d}/img01.nii.gz", "--mask",
                                          "{d}/mask.nii.gz", "--labels", "a", "--groups", "1", "2")),
         {"table.csv": fmri_table()}, fragment="--labels: 1 value for 2 maps ('a' is no file either)"),
    Case("fmri labels binary file", _fmri(data=("--images", "{d}/img00.nii.gz", "--mask", "{d}/mask.nii.gz",
                                                "--labels", "{d}/labels.bin", "--groups", "1")),
         {"table.csv": fmri_table(), "labels.bin": raw(b"\x80\x81\x00\x01")}, fragment="labels.bin is not UTF-8 text"),
    Case("fmri labels file with a blank line", _fmri(data=("--images", "{d}/img00.nii.gz", "{d}/img01.nii.gz",
                                                           "--mask", "{d}/mask.nii.gz", "--labels", "{d}/labels.txt",
                                                           "--groups", "1", "2")),
         {"table.csv": fmri_table(), "labels.txt": raw(b"a\n\nb\n")}, fragment="line 2 is empty"),
    Case("fmri labels file on one line", _fmri(data=("--images", "{d}/img00.nii.gz", "{d}/img01.nii.gz",
                                                     "--mask", "{d}/mask.nii.gz", "--labels", "{d}/labels.txt",
                                                     "--groups", "1", "2")),
         {"table.csv": fmri_table(), "labels.txt": raw(b"a b\n")},
         fragment="labels.txt: 1 value for 2 maps; give one value per map, one per line"),
    Case("fmri no mask", _fmri(data=("--images", "{d}/img00.nii.gz")), {"table.csv": fmri_table()},
         fragment="--mask is required"),
    Case("fmri no data", ["fmri", "--out", "{d}/out"], fragment="give --images (with --labels and --groups), "
                                                                 "--table, or --simulate"),
    Case("fmri simulate and table", _fmri("--simulate", "buttonpress"), {"table.csv": fmri_table()},
         fragment="either --simulate or data"),
    Case("fmri classes not present", _fmri("--classes", "a", "z"), {"table.csv": fmri_table()},
         fragment="--classes ['z'] not among the labels"),
    Case("fmri simulated class not present", ["fmri", "--simulate", "emotion", *SIM[2:], "--classes", "joy", "xx",
                                              "--out", "{d}/out"],
         fragment="--classes ['xx'] not among the labels ['anger', 'disgust', 'fear', 'joy', 'sadness']"),
    Case("fmri report is the table", _fmri("--report", "{d}/table.csv"), {"table.csv": fmri_table()},
         fragment="--report {d}/table.csv is the input"),
    Case("fmri out is the mask", _fmri(data=("--table", "{d}/table.csv", "--mask", "{d}/mask.nii.gz"))[:-3]
         + ["--out", "{d}/mask.nii.gz"], {"table.csv": fmri_table()}, fragment="is the input"),
    Case("fmri grid too coarse", ["fmri", *SIM[:2], "--grid-level", "9", "--out", "{d}/out"],
         fragment="--grid-level 9 is too coarse"),
    Case("fmri clusters off the grid", ["fmri", *SIM[:2], "--grid-level", "3", "--out", "{d}/out"],
         fragment="--grid-level 3 is too coarse for the 'buttonpress' simulation"),
    Case("fmri level too coarse", ["fmri", *SIM, "--level", "9", "--out", "{d}/out"],
         fragment="--level 9 is too coarse"),
] + [
    Case(f"fmri {flag} {value}", ["fmri", *SIM[:2], flag, value, "--out", "{d}/out"], fragment=fragment)
    for flag, value, fragment in [
        ("--participants", "1", "--participants must be at least 2"),
        ("--runs", "0", "--runs must be at least 1"),
        ("--grid-level", "-1", "--grid-level must be 0 or more"),
        ("--level", "-2", "--level must be 0 or more"),
        ("--permutations", "-1", "--permutations must be 0 or more"),
        ("--random-subsets", "-5", "--random-subsets must be 0 or more"),
        ("--informative-every", "-1", "--informative-every must be 0 or more"),
        ("--max-repetitions", "0", "--max-repetitions must be at least 1"),
        ("--random-state", "-5", "--random-state must lie between"),
        ("--n-jobs", "0", "--n-jobs must be a number"),
        ("--C", "-2", "--C must be a finite positive number"),
        ("--simulate", "faces", "--simulate invalid choice"),
    ]
]


def _bomb(tmp, env):
    from PIL import Image as PILImage
    env["monkeypatch"].setattr(PILImage, "MAX_IMAGE_PIXELS", 1000)


def _no_memory(*args, **kwargs):
    raise MemoryError("Unable to allocate 8 EiB")


def _ci(source, target, *extra):
    return ["correct-illumination", f"{{d}}/{source}", f"{{d}}/{target}", "--levels", "2", *extra]


ILLUMINATION = [
    Case("picture onto itself", _ci("in.png", "in.png"), {"in.png": png()}, fragment="is the input"),
    Case("picture onto its mask", _ci("in.png", "m.png", "--mask", "{d}/m.png"), {"in.png": png(), "m.png": png()},
         fragment="is the input"),
    Case("picture as NIfTI", _ci("in.png", "out.nii"), {"in.png": png()},
         fragment="write the result as a picture file like the input"),
    Case("gif input", _ci("in.gif", "out.png"), {"in.gif": png()}, fragment="unknown file type"),
    Case("not a picture", _ci("in.png", "out.png"), {"in.png": text("hello")},
         fragment="cannot read it as a picture"),
    Case("missing picture", _ci("none.png", "out.png"), fragment="No such file or directory"),
    Case("output folder missing", _ci("in.png", "no/out.png"), {"in.png": png()}, fragment="does not exist"),
    Case("output is a directory", _ci("in.png", "out.png"), {"in.png": png(), "out.png": directory},
         fragment="is a directory"),
    Case("output is a link", _ci("in.png", "out.png"), {"in.png": png(), "t.png": png(), "out.png": link("t.png")},
         fragment="is a symbolic link"),
    Case("decompression bomb", _ci("in.png", "out.png"), {"in.png": png((40, 40))},
         fragment="larger than Pillow's safety limit", setup=_bomb),
    Case("just above the bomb limit", _ci("in.png", "out.png"), {"in.png": png((30, 40))},
         fragment="larger than Pillow's safety limit", setup=_bomb),
    Case("levels negative", _ci("in.png", "out.png", "--levels", "-1"), {"in.png": png()},
         fragment="--levels must be 0 or more"),
    Case("levels too many", _ci("in.png", "out.png", "--levels", "50"), {"in.png": png()},
         fragment="50 pyramid levels are too many"),
    Case("mask of another size", _ci("in.png", "out.png", "--mask", "{d}/m.png"),
         {"in.png": png(), "m.png": png((8, 8))}, fragment="mask is 8 x 8 pixels"),
    Case("multi-page tiff", _ci("in.tif", "out.tif"), {"in.tif": png(frames=2)}, fragment="2 frames/pages"),
    Case("NIfTI of 5 dimensions", _ci("in.nii.gz", "out.nii.gz"), {"in.nii.gz": nifti((2, 2, 2, 2, 2))},
         fragment="got 5 dimensions"),
    Case("NIfTI garbage", _ci("in.nii.gz", "out.nii.gz"), {"in.nii.gz": raw(b"garbage")},
         fragment="cannot read it as NIfTI"),
    Case("NIfTI onto itself", _ci("in.nii.gz", "in.nii.gz"), {"in.nii.gz": nifti((16, 16, 16))},
         fragment="is the input"),
    Case("picture replaces an old output", _ci("in.png", "out.png", "--overwrite"), {"in.png": png(), "out.png": text("old")}, OK,
         check=lambda out, tmp: (tmp / "out.png").read_bytes().startswith(b"\x89PNG")),
    Case("NIfTI legitimate", _ci("in.nii.gz", "out.nii.gz", "--levels", "1"), {"in.nii.gz": nifti((16, 16, 16))},
         OK, check=lambda out, tmp: nib.load(tmp / "out.nii.gz").shape == (16, 16, 16)),
]

REPORT = [
    Case("report missing folder", ["report", "{d}/none"], fragment="no such result directory"),
    Case("report without summary", ["report", "{d}/res"], {"res": directory}, fragment="has no summary.json"),
    Case("report invalid JSON", ["report", "{d}/res"], {"res": summary("{oops")}, fragment="not valid JSON"),
    Case("report JSON list", ["report", "{d}/res"], {"res": summary("[1, 2]")}, fragment="must hold a JSON object"),
    Case("report summary not UTF-8", ["report", "{d}/s.json"], {"s.json": raw(b"\xff\xfe{")},
         fragment="is not UTF-8 text"),
    Case("report sections a number", ["report", "{d}/res"], {"res": summary({"sections": 3})},
         fragment="'sections' must be a list"),
    Case("report figure without path", ["report", "{d}/res"], {"res": summary({"figures": [{"caption": 1}]})},
         fragment="needs a path"),
    Case("report caption a list", ["report", "{d}/res"],
         {"res": summary({"figures": [{"path": "a.png", "caption": [1]}]})}, fragment="must be text"),
    Case("report facts a string", ["report", "{d}/res"],
         {"res": summary({"sections": [{"title": "x", "facts": "y"}]})}, fragment="must be an object"),
    Case("report absolute path", ["report", "{d}/res"], {"data.csv": csv(), "res": summary(
        lambda parent: {"tables": [str(parent / "data.csv")]})}, fragment="lies outside"),
    Case("report parent path", ["report", "{d}/res"], {"data.csv": csv(), "res": summary(
        {"tables": ["../data.csv"]})}, fragment="lies outside"),
    Case("report link leaving", ["report", "{d}/res"], {"data.csv": csv(), "res": summary({"tables": ["l.csv"]})},
         fragment="lies outside", setup=lambda tmp, env: (tmp / "res" / "l.csv").symlink_to(tmp / "data.csv")),
    Case("report listed figure missing", ["report", "{d}/res"], {"res": summary({"figures": ["gone.png"]})},
         fragment="lists the figure gone.png, but"),
    Case("report figure not a PNG", ["report", "{d}/res"], {"res": summary({"figures": ["t.png"]})},
         fragment="is not a PNG image",
         setup=lambda tmp, env: (tmp / "res" / "t.png").write_text("plain text")),
    Case("report table unreadable", ["report", "{d}/res"], {"res": summary({"tables": ["bad.csv"]})},
         fragment="not a readable UTF-8 CSV/TSV table",
         setup=lambda tmp, env: (tmp / "res" / "bad.csv").write_bytes(b"\xff\xfe\x00")),
    Case("report over summary.json", ["report", "{d}/res", "-o", "{d}/res/summary.json"],
         {"res": summary({"n": 1})}, fragment="is the input"),
    Case("report over its figure", ["report", "{d}/res", "-o", "{d}/res/a.png"],
         {"res": summary({"figures": ["a.png"]})}, fragment="is the input"),
    Case("report into a directory", ["report", "{d}/res", "-o", "{d}/res"], {"res": summary({"n": 1})},
         fragment="is a directory"),
    Case("report named txt", ["report", "{d}/res", "-o", "{d}/r.txt"], {"res": summary({"n": 1})},
         fragment="must end in .html"),
    Case("report of an altered select result", ["report", "{d}/s.json"],
         {"s.json": text(json.dumps({"selected": [], "train_accuracy": 1}))},
         fragment="looks like the output of 'sfmlearn select --json'"),
    Case("report legitimate", ["report", "{d}/res"], {"res": summary({"figures": ["a.png"], "tables": ["t.csv"]})},
         OK, check=lambda out, tmp: (tmp / "res" / "report.html").stat().st_size > 1000),
]

OTHERS = [
    Case("separability no shape", ["separability"], fragment="give the data shape"),
    Case("separability n zero", ["separability", "--n", "0", "--d", "3"], fragment="--n must be at least 1"),
    Case("separability d negative", ["separability", "--n", "5", "--d", "-1"], fragment="--d must be at least 1"),
    Case("separability k zero", ["separability", "--n", "5", "--d", "3", "--k", "0"],
         fragment="--k must be at least 1"),
    Case("separability k above d", ["separability", "--n", "5", "--d", "3", "--k", "4"],
         fragment="--k must lie between 1 and d = 3"),
    Case("separability C nan", ["separability", "--n", "5", "--d", "3", "--C", "nan"],
         fragment="--C must be a finite positive number"),
    Case("separability monte carlo negative", ["separability", "--n", "5", "--d", "3", "--monte-carlo", "-1"],
         fragment="--monte-carlo must be 0 or more"),
    Case("separability too many subsets", ["separability", "--n", "10", "--d", "500", "--k", "3",
                                           "--monte-carlo", "5"], fragment="subsets per trial"),
    Case("separability figures into a file", ["separability", "--figures", "{d}/data.csv"], {"data.csv": csv()},
         fragment="is a file, not a folder"),
    Case("separability figures and a shape", ["separability", "--figures", "{d}/figs", "--n", "10", "--d", "4"],
         fragment="--n, --d describe one data shape, which --figures does not use"),
    Case("separability quick without figures", ["separability", "--n", "10", "--d", "3", "--quick"],
         fragment="--quick applies with --figures; add --figures DIR or leave it out"),
    Case("repeat every without estimate", ["repeat", "{d}/data.csv", "--target", "y", "--no-estimate", "--every", "3"],
         {"data.csv": csv()}, fragment="--every applies to the informative-fraction estimate, which --no-estimate"),
    Case("separability huge shape", ["separability", "--n", "100000000000", "--d", "100000000000000", "--json"],
         code=OK, check=_json_result(lambda r: r["p_separable"] == 1)),
    Case("datasets unknown", ["datasets", "iris"], fragment="unknown dataset 'iris'"),
    Case("reproduce unknown", ["reproduce", "nc-tabel1"], fragment="no result 'nc-tabel1'"),
    Case("reproduce all and an id", ["reproduce", "all", "nc-table1"], fragment="either 'all' or result IDs"),
    Case("reproduce out is a file", ["reproduce", "thesis-sep-bounds", "--out", "{d}/data.csv"],
         {"data.csv": csv()}, fragment="is a file, not a folder"),
    Case("reproduce repetitions zero", ["reproduce", "thesis-sep-bounds", "--repetitions", "0"],
         fragment="--repetitions must be at least 1"),
    Case("reproduce nothing", ["reproduce"], fragment="give a result ID"),
    Case("out of memory", ["separability", "--n", "10", "--d", "3", "--monte-carlo", "2"],
         fragment="out of memory (Unable to allocate 8 EiB); ask for a smaller problem",
         setup=lambda tmp, env: env["monkeypatch"].setattr(
             "sfmlearn.theory._simulation.prob_separable_subspace_mc", _no_memory)),
    Case("no command", [], fragment="give a command"),
    Case("unknown command", ["selekt"], fragment="invalid choice: 'selekt'"),
]

CASES = SELECT_FILES + SELECT_FLAGS + SELECT_OUTPUTS + OMICS + REPEAT + FMRI + ILLUMINATION + REPORT + OTHERS


def test_the_battery_is_large_and_ids_are_unique():
    assert len(CASES) >= 100
    assert len({case.id for case in CASES}) == len(CASES)


# ----------------------------------------------------------------------------- the run

@pytest.fixture
def unreadable(monkeypatch):
    """``unreadable(path)``: opening ``path`` fails with EACCES (as chmod 000 does, also for root)."""
    import builtins
    import io

    def arm(path):
        real_open = builtins.open
        resolved = path.resolve()

        def fake_open(file, *args, **kwargs):
            if isinstance(file, (str, os.PathLike)) and os.path.realpath(file) == str(resolved):
                raise PermissionError(errno.EACCES, "Permission denied", str(file))
            return real_open(file, *args, **kwargs)
        monkeypatch.setattr(builtins, "open", fake_open)
        monkeypatch.setattr(io, "open", fake_open)
    return arm


def _snapshot(folder):
    """Every file and link under ``folder``: content (or link target) by relative path."""
    state = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            state[key] = ("link", os.readlink(path))
        elif path.is_file():  # read below open(), which a case may have made fail
            descriptor = os.open(path, os.O_RDONLY)
            try:
                state[key] = ("file", os.read(descriptor, path.stat().st_size + 1))
            finally:
                os.close(descriptor)
        else:
            state[key] = ("dir",)
    return state


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_hostile_command_line(case, tmp_path, capsys, monkeypatch, read_only, unreadable):
    for name, build in case.files.items():
        build(tmp_path / name)
    if case.setup is not None:
        case.setup(tmp_path, {"monkeypatch": monkeypatch, "read_only": read_only, "unreadable": unreadable})
    before = _snapshot(tmp_path)
    code = main([arg.replace("{d}", str(tmp_path)) for arg in case.argv])
    captured = capsys.readouterr()
    fragment = case.fragment.replace("{d}", str(tmp_path))
    assert "Traceback" not in captured.err
    assert code == case.code, captured.err
    if case.code == OK:
        after = _snapshot(tmp_path)
        changed = [key for key, value in before.items() if after.get(key) != value]
        assert changed in ([], ["old.html"], ["out.png"]), changed  # only the outputs the case replaces
        assert fragment in captured.err
        if case.check is not None:
            assert case.check(captured.out, tmp_path)
        return
    assert captured.out == ""
    assert captured.err.startswith("sfmlearn: error: ") and captured.err.count("\n") == 1, captured.err
    assert fragment in captured.err, captured.err
    assert _snapshot(tmp_path) == before  # nothing overwritten, created or left behind
