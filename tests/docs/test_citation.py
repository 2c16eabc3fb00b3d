"""The version is stated once (sfmlearn/_version.py); CITATION.cff and CHANGELOG.md agree."""

import re
from pathlib import Path

import sfmlearn

ROOT = Path(__file__).resolve().parents[2]


def test_citation_cites_this_version_and_the_papers():
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^cff-version: 1\.2\.0$', text, re.M)
    assert re.search(r'^version: "([^"]+)"', text, re.M).group(1) == sfmlearn.__version__
    for title in ("The Support Feature Machine: Classification with the least number",
                  "title: Support Feature Machine",
                  "Combined SVM-based feature selection and classification",
                  "Potential Support Vector Machine"):
        assert title in text, title


def test_changelog_has_a_section_for_this_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## [{sfmlearn.__version__}]" in text
