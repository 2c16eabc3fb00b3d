"""Hostile outputs and sizes: existing files, files a result lists, absurd sizes, noisy failures.

Every case runs ``sfmlearn`` in-process and asserts the exit code, exactly one line on
stderr when the command fails (``sfmlearn: error: ...`` naming the file or the limit),
and that every file in the folder is exactly as it was (hashed before and after). The
refusals happen before any fit, so the grids run in seconds.
"""

import hashlib
import json
import os

import nibabel as nib
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sfmlearn.cli import main


# ----------------------------------------------------------------------------- helpers

def _hashes(folder):
    """``{relative path: sha256}`` of every file below ``folder`` (links by their target text)."""
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            key = os.path.relpath(path, folder)
            if os.path.islink(path):
                found[key] = "link:" + os.readlink(path)
            else:
                with open(path, "rb") as handle:
                    found[key] = hashlib.sha256(handle.read()).hexdigest()
    return found


def _run(argv, capsys):
    """``(exit code, stdout, stderr)`` of ``sfmlearn ARGV``."""
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _refused(argv, capsys, folder, *fragments, code=2):
    """Run ``argv``: exit ``code``, one error line holding ``fragments``, no file changed or added."""
    before = _hashes(folder)
    status, out, err = _run(argv, capsys)
    assert status == code, err
    assert err.count("\n") == 1 and err.startswith("sfmlearn: error: "), err
    assert "Traceback" not in err and out == ""
    for fragment in fragments:
        assert str(fragment) in err, (fragment, err)
    assert _hashes(folder) == before
    return err


def _table(path):
    rng = np.random.default_rng(0)
    y = np.array(["a", "b"] * 6)
    frame = pd.DataFrame(rng.standard_normal((12, 4)), columns=["p", "q", "r", "s"])
    frame["p"] += np.where(y == "a", 3.0, -3.0)
    frame["y"] = y
    frame.to_csv(path, index=False)
    return path


@pytest.fixture
def table(tmp_path):
    return _table(tmp_path / "data.csv")


def _data(table):
    return [table, "--target", "y", "--cv", "0", "--quiet"]


# ----------------------------------------------------------------------------- 1. existing outputs

#: command line (``{table}``, ``{out}`` filled in) -> the flag that names the output
WRITERS = {
    "select --report": (["select", "{table}", "--target", "y", "--cv", "0", "--quiet", "--report", "{out}"],
                        "--report", "r.html"),
    "repeat --report": (["repeat", "{table}", "--target", "y", "--quiet", "--report", "{out}"], "--report",
                        "r.html"),
    "path --report": (["path", "{table}", "--target", "y", "--quiet", "--report", "{out}"], "--report", "r.html"),
    "path --png": (["path", "{table}", "--target", "y", "--quiet", "--png", "{out}"], "--png", "p.png"),
    "fmri --report": (["fmri", "--simulate", "buttonpress", "--out", "{dir}/res", "--quiet", "--report", "{out}"],
                      "--report", "r.html"),
    "correct-illumination": (["correct-illumination", "{dir}/in.png", "{out}"], "output", "o.png"),
}
#: what stands at the output path before the run
EXISTING = {
    "empty file": lambda path: path.write_bytes(b""),
    "earlier output": lambda path: path.write_bytes(b"<html>earlier</html>"),
    "binary": lambda path: path.write_bytes(bytes(range(256))),
    "read-only file": lambda path: (path.write_bytes(b"keep"), path.chmod(0o444)),
}


def _fill(argv, **values):
    return [a.format(**values) for a in argv]


@pytest.fixture
def picture(tmp_path):
    from PIL import Image

    Image.fromarray((np.arange(64 * 64) % 251).reshape(64, 64).astype(np.uint8)).save(tmp_path / "in.png")


@pytest.mark.parametrize("situation", EXISTING)
@pytest.mark.parametrize("writer", WRITERS)
def test_existing_output_is_refused_without_overwrite(writer, situation, table, picture, tmp_path, capsys):
    argv, flag, name = WRITERS[writer]
    out = tmp_path / name
    EXISTING[situation](out)
    _refused(_fill(argv, table=table, out=out, dir=tmp_path), capsys, tmp_path, flag, out, "--overwrite",
             "already exists")
    assert not (tmp_path / "res").exists()


@pytest.mark.parametrize("result", ["summary.json", "maps", "figures", "tables", "data"])
@pytest.mark.parametrize("extra", [[], ["--json"], ["--report", "{dir}/new.html"]])
def test_fmri_out_holding_a_result_is_refused(result, extra, tmp_path, capsys):
    out = tmp_path / "res"
    out.mkdir()
    (out / result).write_text("{}") if "." in result else (out / result).mkdir()
    argv = ["fmri", "--simulate", "buttonpress", "--out", out, "--quiet"] + _fill(extra, dir=tmp_path)
    _refused(argv, capsys, tmp_path, "--out", result, "--overwrite")
    assert not (tmp_path / "new.html").exists()


@pytest.mark.parametrize("command", ["select", "path", "repeat", "fmri", "report", "correct-illumination"])
def test_help_names_overwrite(command, capsys):
    code, out, _ = _run([command, "--help"], capsys)
    assert code == 0 and "--overwrite" in out


def _result_dir(folder, summary):
    folder.mkdir(exist_ok=True)
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    pd.DataFrame({"fold": [1, 2], "accuracy": [0.9, 1.0]}).to_csv(folder / "folds.csv", index=False)
    return folder


@pytest.mark.parametrize("option", [[], ["--overwrite"]])
@pytest.mark.parametrize("target", ["res/report.html", "res/other.html", "elsewhere.htm"])
@pytest.mark.parametrize("situation", EXISTING)
def test_report_existing_output(situation, target, option, tmp_path, capsys):
    res = _result_dir(tmp_path / "res", {"title": "t", "tables": ["folds.csv"]})
    out = tmp_path / target
    EXISTING[situation](out)
    argv = ["report", res, *option] + ([] if target == "res/report.html" else ["-o", out])
    if not option:
        _refused(argv, capsys, tmp_path, out, "--overwrite", "report" if "-o" not in argv else "-o")
        return
    code, printed, err = _run(argv, capsys)
    assert code == 0 and err == "" and "report written" in printed
    assert "accuracy" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("writer", ["select --report", "path --png"])
def test_overwrite_replaces_an_earlier_output(writer, table, tmp_path, capsys):
    argv, _, name = WRITERS[writer]
    out = tmp_path / name
    out.write_bytes(b"earlier")
    argv = _fill(argv, table=table, out=out, dir=tmp_path) + ["--overwrite"]
    if writer == "path --png":
        argv += ["--Cs", "3", "--cv", "2"]
    code, _, err = _run(argv, capsys)
    assert code == 0, err
    assert out.read_bytes() != b"earlier" and out.stat().st_size > 100


#: where summary.json names the file the report would be written to
LISTINGS = {
    "figure (not PNG)": lambda name: {"figures": [name]},
    "table (not CSV)": lambda name: {"tables": [{"path": name, "caption": "x"}]},
    "section figure": lambda name: {"sections": [{"title": "s", "figures": [{"path": name}]}]},
    "other key": lambda name: {"notes": name, "tables": ["folds.csv"]},
    "nested key": lambda name: {"extra": {"files": [{"report": name}]}, "tables": ["folds.csv"]},
    "subfolder": lambda name: {"figures": [f"./{name}"]},
}


@pytest.mark.parametrize("option", [[], ["--overwrite"]])
@pytest.mark.parametrize("named", ["report.html", "t.html", "T.HTM"])
@pytest.mark.parametrize("listing", LISTINGS)
def test_report_never_writes_over_a_file_the_summary_names(listing, named, option, tmp_path, capsys):
    res = _result_dir(tmp_path / "res", LISTINGS[listing](named))
    (res / named).write_bytes(b"<html>the user's own page</html>")
    argv = ["report", res, *option] + ([] if named == "report.html" else ["-o", res / named])
    _refused(argv, capsys, tmp_path, named, "input")


# ----------------------------------------------------------------------------- 2. bounded work

@pytest.mark.parametrize("value", ["1001", "100000", "1000000000", str(10**30)])
def test_path_refuses_a_huge_grid_of_C(value, table, tmp_path, capsys):
    _refused(["path", table, "--target", "y", "--quiet", "--Cs", value], capsys, tmp_path, "--Cs", "1000")


@pytest.mark.parametrize("value", ["0", "1000000", str(10**20), "-1000000"])
@pytest.mark.parametrize("command", [
    ["select", "{table}", "--target", "y", "--cv", "0"],
    ["path", "{table}", "--target", "y"],
    ["repeat", "{table}", "--target", "y"],
    ["fmri", "--simulate", "buttonpress", "--out", "{dir}/res"],
    ["separability", "--figures", "{dir}/figs"],
])
def test_n_jobs_outside_its_range_is_refused(command, value, table, tmp_path, capsys):
    _refused(_fill(command, table=table, dir=tmp_path) + ["--n-jobs", value], capsys, tmp_path, "--n-jobs",
             "-1", str(4 * (os.cpu_count() or 1)))


@given(value=st.one_of(st.integers(max_value=-(os.cpu_count() or 1) - 1),
                       st.integers(min_value=4 * (os.cpu_count() or 1) + 1), st.just(0)))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_n_jobs_property(value, tmp_path, capsys):
    _refused(["separability", "--n", "5", "--d", "3", "--n-jobs", str(value)], capsys, tmp_path, "--n-jobs")


@pytest.mark.parametrize("argv, limit", [
    (["--n", "1000000000", "--d", "1000000000", "--k", "500000000"], "100000"),
    (["--n", "100", "--d", "1000000", "--k", "100001"], "100000"),
    (["--n", "10", "--d", "200", "--k", *map(str, range(1, 102))], "100"),
    (["--n", "20", "--d", "30", "--k", "2", "--monte-carlo", "1000000000"], "10000"),
    (["--n", "20", "--d", "30", "--k", "1", "2", "--monte-carlo", "100"], "(limit 10000)"),
    (["--n", "1000000000", "--d", "5", "--k", "1", "--monte-carlo", "3"], "10000"),
    (["--n", "1", "--d", "5", "--k", "1", "--monte-carlo", "3"], "--n"),
    (["--n", "20", "--d", "100000", "--k", "3", "--monte-carlo", "1"], "10000"),
])
def test_separability_sizes_are_bounded(argv, limit, tmp_path, capsys):
    _refused(["separability", *argv], capsys, tmp_path, limit)


@pytest.mark.parametrize("argv", [
    ["--n", "1000000000", "--d", "1000000000", "--k", "5"],
    ["--n", "38", "--d", "200000", "--k", "100000"],
    ["--n", "20", "--d", "10", "--k", "1", "2", "--monte-carlo", "2"],
])
def test_separability_within_the_limits_answers(argv, capsys):
    code, out, err = _run(["separability", "--json", *argv], capsys)
    assert code == 0 and err == ""
    result = json.loads(out)
    assert all(0 <= s["upper_bound"] <= 1 for s in result["subsets"])


def _xy():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((12, 5))
    y = np.array([0, 1] * 6)
    X[:, 0] += 3 * (2 * y - 1)
    return X, y


@pytest.mark.parametrize("Cs", [1001, 10**9, np.geomspace(0.1, 10, 1001)])
def test_softness_cv_refuses_a_huge_grid(Cs):
    from sklearn.utils._param_validation import InvalidParameterError

    from sfmlearn.selection import SupportFeatureMachineCV

    with pytest.raises(InvalidParameterError, match="1000"):
        SupportFeatureMachineCV(Cs=Cs, cv=2).fit(*_xy())


@pytest.mark.parametrize("Cs", [1001, 10**9, list(np.geomspace(0.1, 10, 2000))])
def test_sfm_path_refuses_a_huge_grid(Cs):
    from sklearn.utils._param_validation import InvalidParameterError

    from sfmlearn.selection import sfm_path

    with pytest.raises(InvalidParameterError, match="at most 1000"):
        sfm_path(*_xy(), Cs=Cs)


@pytest.mark.parametrize("n_jobs", [0, 1.5, "2"])
def test_repetitive_sfm_refuses_a_bad_n_jobs(n_jobs):
    from sklearn.utils._param_validation import InvalidParameterError

    from sfmlearn.selection import RepetitiveSFM

    with pytest.raises(InvalidParameterError, match="n_jobs"):
        RepetitiveSFM(n_jobs=n_jobs).fit(*_xy())


# ----------------------------------------------------------------------------- 3. one line

def _nested(depth):
    return '{"title": "deep", "x": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize("content, fragment", [
    (_nested(5000), "nested too deeply"),
    (_nested(100000), "nested too deeply"),
    ('{"x": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}", "nested too deeply"),
    ('{"title": "\\ud800"}', "surrogate"),
    ('{"description": "ok \\udfff ok"}', "surrogate"),
    ('{"sections": [{"title": "\\ud83d"}]}', "surrogate"),
    ('{"\\ud800": 1}', "surrogate"),
    ('{"summary": {"a": "\\udc00"}}', "surrogate"),
])
@pytest.mark.parametrize("as_file", [False, True])
def test_hostile_summary_is_one_line(content, fragment, as_file, tmp_path, capsys):
    res = tmp_path / "res"
    res.mkdir()
    (res / "summary.json").write_text(content, encoding="utf-8")
    source = res / "summary.json" if as_file else res
    _refused(["report", source, "-o", tmp_path / "out.html"], capsys, tmp_path, fragment)


@pytest.mark.parametrize("first", [["--images", "{dir}/a.nii.gz"], ["--images", "{dir}/a.nii.gz", "{dir}/b.nii"]])
@pytest.mark.parametrize("second", [["--table", "{dir}/t.csv"], ["--table", "{dir}/missing.csv"]])
@pytest.mark.parametrize("order", ["images first", "table first"])
def test_fmri_refuses_images_and_table_together(first, second, order, tmp_path, capsys):
    (tmp_path / "t.csv").write_text("image,label,participant\na.nii.gz,x,1\n")
    options = first + second if order == "images first" else second + first
    argv = ["fmri", *_fill(options, dir=tmp_path), "--mask", tmp_path / "m.nii.gz", "--out", tmp_path / "res"]
    _refused(argv, capsys, tmp_path, "--images", "--table", "not both")
    assert not (tmp_path / "res").exists()


def test_fmri_reads_a_series_written_as_x_y_z_1_t_like_the_library(tmp_path):
    from sfmlearn.analysis.fmri_data import load_fmri_data
    nib.save(nib.Nifti1Image(np.ones((3, 3, 3), dtype=np.uint8), np.eye(4)), tmp_path / "mask.nii.gz")
    series = np.random.default_rng(0).standard_normal((3, 3, 3, 4)).astype(np.float32)
    nib.save(nib.Nifti1Image(series[:, :, :, None, :], np.eye(4)), tmp_path / "img.nii.gz")
    data = load_fmri_data(images=[str(tmp_path / "img.nii.gz")], mask=str(tmp_path / "mask.nii.gz"),
                          labels=list("abab"), groups=list("1122"))
    np.testing.assert_allclose(data.X, series.reshape(27, 4).T)


@pytest.mark.parametrize("shape", [(3, 3, 3, 2, 2), (3, 3, 3, 2, 1, 2), (3, 3)])
@pytest.mark.parametrize("via", ["images", "table"])
def test_fmri_names_an_image_of_the_wrong_dimension(shape, via, tmp_path, capsys):
    mask = np.ones((3, 3, 3), dtype=np.uint8)
    nib.save(nib.Nifti1Image(mask, np.eye(4)), tmp_path / "mask.nii.gz")
    nib.save(nib.Nifti1Image(np.ones(shape, dtype=np.float32), np.eye(4)), tmp_path / "img.nii.gz")
    if via == "images":
        data = ["--images", tmp_path / "img.nii.gz", "--labels", *"ab" * 2, "--groups", *"1122"]
    else:
        (tmp_path / "t.csv").write_text("image,label,participant\nimg.nii.gz,a,1\nimg.nii.gz,b,2\n")
        data = ["--table", tmp_path / "t.csv"]
    argv = ["fmri", *data, "--mask", tmp_path / "mask.nii.gz", "--out", tmp_path / "res", "--quiet"]
    err = _refused(argv, capsys, tmp_path, f"{len(shape)}-D image", "expected 3-D maps or one 4-D series")
    assert "values for" not in err


#: warnings a command may raise (library, numpy, anndata-like)
WARNINGS = [UserWarning("Variable names are not unique. To make them unique, call `.var_names_make_unique`."),
            RuntimeWarning("overflow encountered in exp"),
            RuntimeWarning("invalid value encountered in divide"),
            UserWarning("a constant feature\nspread over two lines")]


@pytest.fixture
def warning_command(monkeypatch):
    """``select`` replaced by a command that warns ``times`` times, then fails or succeeds."""
    import warnings

    from sfmlearn.cli import select
    from sfmlearn.cli._common import CLIError

    def install(warning, times, fail):
        def run(args):
            for _ in range(times):
                warnings.warn(warning.args[0], type(warning), stacklevel=1)
            if fail:
                raise CLIError("the input is bad")
            print("result")
            return 0
        monkeypatch.setattr(select, "run", run)
    return install


@pytest.mark.parametrize("times", [1, 5])
@pytest.mark.parametrize("warning", WARNINGS, ids=lambda w: type(w).__name__ + str(len(w.args[0])))
@pytest.mark.parametrize("fail", [True, False])
def test_warnings_do_not_precede_the_error_and_print_once(warning, times, fail, warning_command, tmp_path,
                                                          capsys):
    warning_command(warning, times, fail)
    if fail:
        _refused(["select", "x.csv"], capsys, tmp_path, "the input is bad")
        return
    code, out, err = _run(["select", "x.csv"], capsys)
    assert code == 0 and out == "result\n"
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sfmlearn: warning: ")
    assert type(warning).__name__ in lines[0]


def test_fold_warnings_are_printed_once(tmp_path, capsys):
    """--C auto on data with a constant feature: the warning of every fold is shown once."""
    frame = pd.read_csv(_table(tmp_path / "d.csv"))
    frame["const"] = 1.0
    frame.to_csv(tmp_path / "d.csv", index=False)
    code, _, err = _run(["select", tmp_path / "d.csv", "--target", "y", "--C", "auto", "--cv", "0", "--quiet"],
                        capsys)
    assert code == 0
    lines = err.splitlines()
    assert len(lines) == len(set(lines))
    assert sum("constant" in line for line in lines) == 1


def test_path_help_states_the_limit_of_the_grid(capsys):
    from sfmlearn.cli import path
    from sfmlearn.selection.sfm.path import MAX_N_CS

    assert path.MAX_N_CS == MAX_N_CS
    code, out, _ = _run(["path", "--help"], capsys)
    assert code == 0 and f"at most {MAX_N_CS}" in " ".join(out.split())


def test_a_softness_beyond_the_librarys_largest_is_refused_in_cli_words(capsys):
    from sfmlearn.cli import _common
    from sfmlearn.optim.problem import MAX_SOFTNESS

    assert _common.MAX_SOFTNESS == MAX_SOFTNESS
    code, _, err = _run(["select", "--dataset", "leukemia", "--cv", "0", "--C", "1e11"], capsys)
    assert code == 2 and "leave --C out" in err and "C=None" not in err


@pytest.mark.parametrize("content, fragment", [
    (_nested(3000), "nested too deeply"),
    ('{"title": "\\ud800"}', "surrogate"),
    ('{"a": ["\\udbff"]}', "surrogate"),
])
def test_read_summary_names_the_problem(content, fragment, tmp_path):
    from sfmlearn.outputs import read_summary

    (tmp_path / "summary.json").write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=fragment):
        read_summary(tmp_path)


@pytest.mark.parametrize("summary, named", [
    ({"figures": ["a.html"]}, {"a.html"}),
    ({"x": {"y": ["sub/b.htm", 3, None]}}, {"sub/b.htm"}),
    ({"x": "/etc/passwd", "y": "../outside.html"}, set()),
    ({"title": "not a file name at all"}, {"not a file name at all"}),
])
def test_result_folder_mentions_every_named_file_inside(summary, named, tmp_path):
    from sfmlearn.outputs import ResultFolder

    (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    folder = ResultFolder.open(tmp_path)
    assert {p.relative_to(tmp_path).as_posix() for p in folder.mentioned()} == named


_TEXT = st.text(st.characters(blacklist_categories=()), max_size=12)
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
                     max_leaves=20)


@given(summary=st.dictionaries(st.sampled_from(["title", "summary", "sections", "figures", "tables", "notes"])
                               | _TEXT, _JSON, max_size=5))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_summary_gives_a_report_or_one_line(summary, tmp_path_factory, capsys):
    folder = tmp_path_factory.mktemp("res")
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    before = _hashes(folder)
    code, out, err = _run(["report", folder, "-o", folder / "out.html"], capsys)
    assert "Traceback" not in err
    if code == 0:
        assert (folder / "out.html").is_file()
        (folder / "out.html").unlink()
    else:
        assert code == 2 and err.count("\n") == 1 and err.startswith("sfmlearn: error: "), err
    assert _hashes(folder) == before
