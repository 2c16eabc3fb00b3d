"""The project speaks of the software, never of how it was made.

Every tracked text file (README, CHANGELOG, docs, src, benchmarks, tests, examples, ...)
is scanned for development-process wording: issue numbers ("issue" followed by a
number), work sessions counted or placed in time (an ordinal, "previous", "earlier",
"next" or "this" before "session"), and the words for discarded experiments. A
measurement is described by the software that made it (version, date, command), a
design choice by its reason. Binary files and the generated results page
(``docs/results.md``, ``docs/results/``) are not scanned.

The pattern is assembled from parts so that this file does not match it.
"""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_ORDINALS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|previous|earlier|next|this"
PROCESS_WORDING = re.compile(
    "|".join([
        r"\b" + "issue" + r"s? ?#?[0-9]+\b",
        r"\b(" + _ORDINALS + ") " + "sess" + r"ions?\b",
        "throw" + "-away",
        "the earlier" + " try",
    ]),
    re.IGNORECASE,
)

#: Generated from the experiments' own tables, not written by hand.
SKIPPED = ("docs/results.md", "docs/results/")


def _tracked_files():
    try:
        listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                 check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no list of tracked files")
    names = [name for name in listing.decode("utf-8").split("\0") if name]
    return [name for name in names if not name.startswith(SKIPPED)]


def _text(path):
    """The file's text, or None for a binary (or missing) file."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def offending_lines(names, root=ROOT):
    """``file:line: text`` of every line in ``names`` that matches :data:`PROCESS_WORDING`."""
    found = []
    for name in names:
        text = _text(root / name)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if PROCESS_WORDING.search(line):
                found.append(f"{name}:{number}: {line.strip()[:160]}")
    return found


def test_no_development_process_wording():
    found = offending_lines(_tracked_files())
    assert not found, ("development-process wording (speak of versions, dates and commands "
                       "instead):\n" + "\n".join(found))


@pytest.mark.parametrize("line", [
    "Scale in samples (" + "issue" + " 15)",
    "see " + "issue" + "s #3 and 4",
    "measured in the " + "seventh sess" + "ion",
    "Earlier " + "sess" + "ions measured more",
    "tried in " + "throw" + "-away scripts",
    "unlike " + "the earlier" + " try",
])
def test_the_pattern_catches_process_wording(line):
    assert PROCESS_WORDING.search(line)


@pytest.mark.parametrize("line", [
    "one warm session per fit (GenerationSession)",
    "a session per repetition",
    "sfmlearn 0.1.0, measured 2026-11",
    "issues with the data are reported as one line",
    "throw away the cache",
])
def test_the_pattern_leaves_the_software_alone(line):
    assert not PROCESS_WORDING.search(line)


def test_offending_lines_names_file_and_line(tmp_path):
    (tmp_path / "a.md").write_text("fine\nas in " + "issue" + " 7\n", encoding="utf-8")
    (tmp_path / "b.bin").write_bytes(b"\0" + ("issue" + " 7").encode())
    assert offending_lines(["a.md", "b.bin", "missing.txt"], root=tmp_path) == [
        "a.md:2: as in " + "issue" + " 7"]
