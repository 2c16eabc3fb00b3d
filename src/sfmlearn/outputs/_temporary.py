"""Temporary and probe files in an output folder: their names, and their quiet removal."""

import contextlib
import os
import secrets

#: Prefix of temporary and probe files; a leftover one can always be deleted.
TEMPORARY_PREFIX = ".sfmlearn-tmp-"


def temporary_name(path):
    """A fresh name in the folder of ``path`` that ends with its name (writers see its suffix)."""
    return path.with_name(f"{TEMPORARY_PREFIX}{secrets.token_hex(4)}-{path.name}")


def remove_quietly(path):
    """Delete ``path`` if it can be deleted; say nothing otherwise."""
    with contextlib.suppress(OSError):
        os.unlink(path)
