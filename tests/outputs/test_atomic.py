"""sfmlearn.outputs.atomic: a failed write never destroys the previous file; output paths checked up front."""

import errno
import json
import os
import stat
import tempfile

import nibabel as nib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from sfmlearn.outputs._temporary import temporary_name
from sfmlearn.outputs.atomic import (
    OutputPathError,
    TEMPORARY_PREFIX,
    atomic_path,
    check_output_dir,
    check_output_file,
    create_output_dir,
    save_figure,
    save_nifti,
    write_bytes,
    write_csv,
    write_json,
    write_text,
)


def _figure():
    fig = Figure(figsize=(2, 2))
    fig.subplots().plot([0, 1], [1, 0])
    return fig


def _image():
    return nib.Nifti1Image(np.arange(27, dtype=np.float32).reshape(3, 3, 3), np.eye(4))


# every writer, with a payload large enough to outrun the simulated disk
WRITERS = {
    "text.html": lambda path: write_text(path, "<p>new</p>" * 1000),
    "bytes.bin": lambda path: write_bytes(path, b"\x01" * 10_000),
    "summary.json": lambda path: write_json(path, {"key": list(range(1000))}),
    "table.csv": lambda path: write_csv(pd.DataFrame({"a": range(1000)}), path, index=False),
    "table.csv.gz": lambda path: write_csv(pd.DataFrame({"a": np.random.default_rng(0).random(5000)}),
                                          path, index=False),
    "figure.png": lambda path: save_figure(_figure(), path, dpi=50),
    "figure": lambda path: save_figure(_figure(), path, dpi=50),  # no suffix: PNG under that very name
    "map.nii.gz": lambda path: save_nifti(_image(), path),
    "map.nii": lambda path: save_nifti(_image(), path),
}


def _leftovers(folder):
    return [p.name for p in folder.iterdir() if p.name.startswith(TEMPORARY_PREFIX)]


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_each_writer_writes_a_readable_file_and_leaves_no_temporary(tmp_path, name):
    path = tmp_path / name
    assert WRITERS[name](path) == path
    assert path.stat().st_size > 0 and not _leftovers(tmp_path)
    if name.startswith("map"):
        np.testing.assert_array_equal(nib.load(path).get_fdata(), _image().get_fdata())
    elif name.startswith("table"):
        assert len(pd.read_csv(path)) > 0
    elif name == "summary.json":
        assert json.loads(path.read_text())["key"][-1] == 999
    elif name.startswith("figure"):
        assert path.read_bytes().startswith(b"\x89PNG") and sorted(tmp_path.iterdir()) == [path]


# nibabel writes uncompressed .nii through the file descriptor, past the simulated disk; the
# monkeypatched nib.save below covers it
@pytest.mark.parametrize("name", sorted(set(WRITERS) - {"map.nii"}))
def test_a_full_disk_keeps_the_previous_file_and_leaves_no_temporary(tmp_path, name, disk_full):
    path = tmp_path / name
    path.write_bytes(b"previous version")
    disk_full(tmp_path, after=100)
    with pytest.raises(OSError) as info:
        WRITERS[name](path)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(path)
    assert path.read_bytes() == b"previous version"
    assert not _leftovers(tmp_path)


def test_a_failing_nifti_write_keeps_the_previous_map(tmp_path, monkeypatch):
    path = tmp_path / "map.nii"
    path.write_bytes(b"previous map")

    def half_then_full(image, filename):
        with open(filename, "wb") as handle:
            handle.write(b"\x00" * 50)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(nib, "save", half_then_full)
    with pytest.raises(OSError, match="No space left"):
        save_nifti(_image(), path)
    assert path.read_bytes() == b"previous map" and not _leftovers(tmp_path)


@pytest.mark.parametrize("exception", [KeyboardInterrupt, RuntimeError])
def test_an_interrupted_write_keeps_the_previous_file(tmp_path, exception):
    path = tmp_path / "report.html"
    path.write_text("previous")
    with pytest.raises(exception), atomic_path(path) as temporary:
        temporary.write_text("half of the new")
        raise exception()
    assert path.read_text() == "previous" and not _leftovers(tmp_path)


def test_a_new_version_keeps_the_permission_bits(tmp_path):
    path = tmp_path / "shared.csv"
    path.write_text("old")
    path.chmod(0o640)
    write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_symbolic_link_is_neither_followed_nor_replaced(tmp_path):
    target = tmp_path / "precious.csv"
    target.write_text("data")
    link = tmp_path / "report.html"
    link.symlink_to(target)
    with pytest.raises(OutputPathError, match="symbolic link"):
        write_text(link, "<html>")
    with pytest.raises(OutputPathError, match="symbolic link"):
        check_output_file(link)
    assert link.is_symlink() and target.read_text() == "data"


def test_an_input_is_refused_by_path_through_a_link_and_through_a_hard_link(tmp_path):
    data = tmp_path / "data.csv"
    data.write_text("a,b\n1,2\n")
    (tmp_path / "sub").mkdir()
    for alias in (data, tmp_path / "sub" / ".." / "data.csv"):
        with pytest.raises(OutputPathError, match="is the input"):
            check_output_file(alias, inputs=[data])
    hard = tmp_path / "hard.csv"
    os.link(data, hard)
    with pytest.raises(OutputPathError, match="is the input"):
        check_output_file(hard, inputs=[data])
    soft = tmp_path / "soft.html"
    soft.symlink_to(data)
    with pytest.raises(OutputPathError, match="is the input"):
        check_output_file(soft, inputs=[data])
    assert data.read_text() == "a,b\n1,2\n"


@pytest.mark.parametrize("make, kwargs, message", [
    (lambda d: d, {}, "is a directory"),
    (lambda d: d / "missing" / "r.html", {}, "does not exist"),
    (lambda d: d / "r.csv", {"suffixes": (".html", ".htm")}, "must end in .html or .htm"),
])
def test_check_output_file_refusals(tmp_path, make, kwargs, message):
    with pytest.raises(OutputPathError, match=message):
        check_output_file(make(tmp_path), what="--report", **kwargs)


def test_a_read_only_folder_is_found_before_any_work(tmp_path, read_only):
    folder = tmp_path / "locked"
    folder.mkdir()
    read_only(folder)
    with pytest.raises(OutputPathError, match="cannot write into"):
        check_output_file(folder / "r.html", what="--report")
    with pytest.raises(OutputPathError, match="cannot write into"):
        check_output_dir(folder / "new" / "deeper", what="--out")
    assert not (folder / "new").exists()


def test_check_output_dir_creates_nothing_and_refuses_files(tmp_path):
    target = tmp_path / "a" / "b"
    assert check_output_dir(target) == target and not (tmp_path / "a").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputPathError, match="is a file, not a folder"):
        check_output_dir(tmp_path / "file", what="--out")
    with pytest.raises(OutputPathError, match="is a file, so the folder cannot be created"):
        check_output_dir(tmp_path / "file" / "sub", what="--out")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(TEMPORARY_PREFIX)]


def test_create_output_dir_reports_the_topmost_folder_it_made(tmp_path):
    assert create_output_dir(tmp_path / "x" / "y" / "z") == tmp_path / "x"
    assert (tmp_path / "x" / "y" / "z").is_dir()
    assert create_output_dir(tmp_path / "x" / "y") is None


def test_probe_files_are_removed(tmp_path):
    check_output_file(tmp_path / "r.html")
    check_output_dir(tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def private_tempdir(tmp_path, monkeypatch):
    """The system's temporary folder, replaced by an empty folder of this test's own."""
    folder = tmp_path / "system-tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_a_pipe_is_written_into_not_replaced(tmp_path, private_tempdir):
    pipe = tmp_path / "stream"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so that the writer does not wait
    try:
        assert write_text(pipe, "two genes\n") == pipe
        assert os.read(reader, 100) == b"two genes\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert not _leftovers(tmp_path) and list(private_tempdir.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full") or not stat.S_ISCHR(os.stat("/dev/full").st_mode),
                    reason="needs the /dev/full device")
def test_a_figure_for_the_full_device_says_the_disk_is_full(private_tempdir, monkeypatch):
    def never_replace(source, target):  # the device must survive even a broken write path
        raise AssertionError(f"{target} would have been replaced")
    def temporaries():  # any other process's leftovers in /dev are not this write's
        return {name for name in os.listdir("/dev") if name.startswith(TEMPORARY_PREFIX)}
    monkeypatch.setattr(os, "replace", never_replace)
    before = temporaries()
    with pytest.raises(OSError) as info:
        save_figure(_figure(), "/dev/full", dpi=50)
    assert info.value.errno == errno.ENOSPC and info.value.filename == "/dev/full"
    assert "No space left on device" in str(info.value)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode) and list(private_tempdir.iterdir()) == []
    assert temporaries() <= before


def test_temporary_names_keep_the_suffix_writers_use(tmp_path):
    name = temporary_name(tmp_path / "map.nii.gz").name
    assert name.startswith(TEMPORARY_PREFIX) and name.endswith("-map.nii.gz")


def test_a_staged_run_removes_the_owned_entries_it_did_not_write_again(tmp_path):
    from sfmlearn.outputs.output_paths import staged_output_dir

    out = tmp_path / "out"
    out.mkdir()
    for name in ("a.csv", "a.png", "other.csv"):
        (out / name).write_text("old")
    (out / "a").mkdir()
    (out / "a" / "map.nii.gz").write_text("old")
    with staged_output_dir(out, remove=["a.csv", "a.png", "a", "never.csv"]) as stage:
        (stage / "a.csv").write_text("new")
    assert sorted(p.name for p in out.iterdir()) == ["a.csv", "other.csv"]
    assert (out / "a.csv").read_text() == "new" and (out / "other.csv").read_text() == "old"
    with pytest.raises(RuntimeError):
        with staged_output_dir(out, remove=["a.csv", "other.csv"]):
            raise RuntimeError("the run broke off")
    assert sorted(p.name for p in out.iterdir()) == ["a.csv", "other.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
