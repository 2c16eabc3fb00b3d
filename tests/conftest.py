"""Shared fixtures: small deterministic problems with known answers; file-system faults."""

import builtins
import errno
import io
import os
from pathlib import Path

import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(0)


# ----------------------------------------------------------------------------- file-system faults
# Used by tests/io, tests/cli and tests/hostile: a full disk and a read-only folder, simulated at
# the Python level so the tests also mean something when they run as root (root ignores chmod).

_WRITE_MODES = set("wax+")


class _FullDisk:
    """A writable file that takes ``budget[0]`` more bytes, then fails like a full disk."""

    def __init__(self, handle, budget):
        self._handle, self._budget = handle, budget

    def write(self, data):
        if len(data) > self._budget[0]:
            self._handle.write(data[: self._budget[0]])
            self._handle.flush()
            self._budget[0] = 0
            raise OSError(errno.ENOSPC, "No space left on device")
        self._budget[0] -= len(data)
        return self._handle.write(data)

    def __getattr__(self, name):
        return getattr(self._handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self._handle.close()


def _patch_open(monkeypatch, folder, wrap):
    """Route open() of files under ``folder`` in a write mode through ``wrap(file, mode, handle)``."""
    folder = Path(folder).resolve()
    real_open = builtins.open

    def fake_open(file, mode="r", *args, **kwargs):
        if (isinstance(file, (str, os.PathLike)) and _WRITE_MODES & set(mode)
                and Path(file).resolve().is_relative_to(folder)):
            return wrap(file, mode, lambda: real_open(file, mode, *args, **kwargs))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(io, "open", fake_open)


@pytest.fixture
def disk_full(monkeypatch):
    """``disk_full(folder, after=10)``: writes under ``folder`` fail with ENOSPC after ``after`` bytes."""
    def arm(folder, after=10):
        budget = [after]
        _patch_open(monkeypatch, folder, lambda file, mode, opener: _FullDisk(opener(), budget))
    return arm


@pytest.fixture
def read_only(monkeypatch, request):
    """``read_only(folder)``: no file can be created in ``folder`` (chmod 555, or simulated for root)."""
    def arm(folder):
        folder = Path(folder)
        folder.chmod(0o555)
        request.addfinalizer(lambda: folder.chmod(0o755))
        probe = folder / ".probe"
        try:
            probe.touch()
        except PermissionError:
            return  # chmod works: the real thing
        probe.unlink()  # running as root: permissions are not enforced, so simulate them

        def refuse(file, mode, opener):
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        _patch_open(monkeypatch, folder, refuse)
    return arm
