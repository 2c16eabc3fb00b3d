"""The reports in a real browser: headless Chromium renders them readably.

Skipped when no Chromium is installed, unless SFMLEARN_REQUIRE_BROWSER=1 (set in CI,
where .ci/run installs Debian's chromium): then a missing browser is a failure.
"""

import json
import os
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.image import imread

from sfmlearn.cli import main
from sfmlearn.report import report_from_result_dir

WIDTH, HEIGHT = 1366, 900  # a common laptop screen


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("SFMLEARN_REQUIRE_BROWSER") == "1":
        pytest.fail("SFMLEARN_REQUIRE_BROWSER=1 but no Chromium was found on PATH "
                    "(install Debian's 'chromium' package, e.g. apt-get install chromium)")
    pytest.skip("headless Chromium not installed (set SFMLEARN_REQUIRE_BROWSER=1 to make this a failure)")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    executable = _chromium()
    profile = tmp_path_factory.mktemp("chromium-profile")

    def run(page, *extra):
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}"]
        done = subprocess.run([executable, *flags, *extra, page.resolve().as_uri()],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    return run


def _check_rendering(browser, page, tmp_path, sections):
    """Sections in the rendered DOM; a screenshot with content in a centred column."""
    dom = browser(page, "--dump-dom")
    assert re.findall(r'<section id="([^"]+)"', dom) == sections
    contents = re.search(r'<nav class="toc".*?</nav>', dom, re.S).group(0)
    assert re.findall(r'href="#([^"]+)"', contents) == sections

    shot = tmp_path / f"{page.stem}.png"
    browser(page, f"--screenshot={shot}")
    pixels = imread(shot)[..., :3]
    assert pixels.shape[:2] == (HEIGHT, WIDTH)
    gray = pixels.mean(axis=2)
    assert gray.std() > 0.05, "the screenshot is blank"
    margin = (WIDTH - 980) // 2 - 10  # main is at most 980 px wide and centred
    columns_with_ink = np.flatnonzero((gray < 0.9).any(axis=0))
    assert columns_with_ink.min() >= margin, "content starts at the left edge: max-width layout lost"
    assert columns_with_ink[columns_with_ink < WIDTH - 30].max() <= WIDTH - margin  # ignore a scrollbar
    return shot


def test_select_report_renders(browser, tmp_path, capsys):
    page = tmp_path / "select.html"
    assert main(["select", "--dataset", "leukemia", "--cv", "3", "--chance", "3", "--quiet",
                 "--report", str(page)]) == 0
    _check_rendering(browser, page, tmp_path, ["data", "method", "features", "accuracy", "chance"])


def test_result_dir_report_renders(browser, tmp_path):
    fig = Figure(figsize=(6, 3))
    fig.subplots().imshow(np.random.default_rng(0).normal(size=(20, 40)), cmap="RdBu_r")
    fig.savefig(tmp_path / "map.png")
    pd.DataFrame({"participant": [f"p{i}" for i in range(6)], "accuracy": np.linspace(0.6, 0.9, 6)}).to_csv(
        tmp_path / "folds.csv", index=False)
    (tmp_path / "summary.json").write_text(json.dumps({
        "title": "fMRI decoding", "n_voxels": 1200,
        "sections": [{"title": "Brain maps", "id": "maps", "figures": [{"path": "map.png", "caption": "weights"}]}],
        "tables": ["folds.csv"]}))
    page = report_from_result_dir(tmp_path)
    _check_rendering(browser, page, tmp_path, ["summary", "maps", "tables"])
