"""The built documentation site renders in a real browser (headless Chromium).

Skipped unless the site has been built (``sphinx-build -W -b html docs docs/_build/html``);
with SFMLEARN_REQUIRE_DOCS=1 (set by .ci/run after it builds the site) a missing site or a
missing Chromium is a failure. The browser is driven as in tests/report/test_browser.py.
"""

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

SITE = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"
WIDTH, HEIGHT = 1366, 900
REQUIRED = os.environ.get("SFMLEARN_REQUIRE_DOCS") == "1"
GALLERY_PAGE = "auto_examples/plot_leukemia_chance.html"
sys.path.insert(0, str(SITE.parents[1] / "_ext"))  # cli_reference: the parser's rows


def _need(condition, message):
    if not condition:
        if REQUIRED:
            pytest.fail(f"SFMLEARN_REQUIRE_DOCS=1 but {message}")
        pytest.skip(message)


@pytest.fixture(scope="module")
def site():
    _need((SITE / "index.html").is_file(),
          f"the site is not built ({SITE}; sphinx-build -W -b html docs docs/_build/html)")
    return SITE


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    executable = next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                                      "google-chrome"))), None)
    _need(executable, "no Chromium on PATH (apt-get install chromium)")
    profile = tmp_path_factory.mktemp("chromium-profile")

    def run(page, *extra, height=HEIGHT):
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", f"--user-data-dir={profile}",
                 f"--window-size={WIDTH},{height}", "--virtual-time-budget=5000"]
        done = subprocess.run([executable, *flags, *extra, page.resolve().as_uri()],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    return run


def _screenshot(browser, page, path, height=HEIGHT):
    browser(page, f"--screenshot={path}", height=height)
    pixels = imread(path)[..., :3]
    assert pixels.shape[:2] == (height, WIDTH)
    assert pixels.mean(axis=2).std() > 0.05, f"the screenshot of {page.name} is blank"
    return pixels


def _local_images(dom, page):
    """Every <img> of the rendered page: it exists next to the page and decodes."""
    sources = re.findall(r'<img[^>]*\bsrc="([^"]+)"', dom)
    images = [src for src in sources if not src.startswith(("data:", "http:", "https:"))]
    for src in images:
        path = (page.parent / src.split("#")[0].split("?")[0]).resolve()
        assert path.is_file(), f"{page.name}: image {src} does not exist"
        if path.suffix == ".png":
            pixels = imread(path)
            assert pixels.size and np.ptp(pixels) > 0, f"{src} is empty or uniform"
    return images


def test_front_page_renders_and_links_every_method(site, browser, tmp_path):
    page = site / "index.html"
    dom = browser(page, "--dump-dom")
    assert re.search(r"<h1[^>]*>\s*sfmlearn", dom), "the front page heading is missing"
    for target in ("SupportFeatureMachine", "RepetitiveSFM", "PotentialSVM",
                   "KernelTargetAlignment", "chance_report"):
        assert re.search(rf'href="api/generated/sfmlearn\.{target}\.html', dom), target
    for section in ("guide/index.html", "auto_examples/index.html", "api/index.html",
                    "cli.html"):
        assert f'href="{section}' in dom, section
    _local_images(dom, page)
    _screenshot(browser, page, tmp_path / "index.png")


def test_gallery_page_renders_its_figures(site, browser, tmp_path):
    page = site / GALLERY_PAGE
    _need(page.is_file(), f"{GALLERY_PAGE} was not built (was the gallery executed?)")
    dom = browser(page, "--dump-dom")
    assert re.search(r"<h1[^>]*>\s*The SFM on leukemia", dom), "the example's heading is missing"
    figures = [src for src in _local_images(dom, page) if "sphx_glr_plot_leukemia" in src]
    assert len(figures) >= 1, "the executed example produced no figure"
    pixels = _screenshot(browser, page, tmp_path / "gallery.png", height=2400)
    # the figure is drawn in colour; the theme's text is grey
    colourful = (pixels.max(axis=2) - pixels.min(axis=2)) > 0.3
    assert colourful.mean() > 0.002, "no figure visible on the rendered gallery page"


# ----------------------------------------------------------------------------- layout probes
# Chromium's command line cannot run a script against a page, so the probe is added to a
# copy of the page: the copy sits in a tree of symbolic links to the built site (its
# relative links, _static/ and MathJax, resolve as on the real page), and the script
# writes what it measured into the DOM that --dump-dom prints.

PROBE = """<script>
window.addEventListener("load", () => {
  const typeset = (window.MathJax && MathJax.startup && MathJax.startup.promise) || Promise.resolve();
  typeset.then(() => {
    // what is wider than its box and scrolls or cuts it: a code block, a table's
    // scroll container, a displayed formula (elements that let it overflow visibly are
    // caught by the document's own width)
    const clipped = [...document.querySelectorAll("main *")]
      .filter(e => getComputedStyle(e).overflowX !== "visible")
      .filter(e => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
      .map(e => e.tagName + "." + e.className + ": " + e.textContent.trim().slice(0, 60));
    const text = document.querySelector("main").cloneNode(true);
    text.querySelectorAll("mjx-container, script, style").forEach(e => e.remove());
    const probe = document.createElement("pre");
    probe.id = "sfm-probe";
    probe.textContent = JSON.stringify({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      clipped,
      math: document.querySelectorAll(".math").length,
      typeset: document.querySelectorAll("mjx-container svg").length,
      errors: document.querySelectorAll("mjx-merror, [data-mjx-error]").length,
      text: text.textContent,
      options: [...document.querySelectorAll("table.sfm-cli-options tbody tr")]
        .map(row => row.cells[0].textContent.trim()),
    });
    document.body.appendChild(probe);
  });
});
</script>"""

RAW_MATH = re.compile(r"\$\$|\\\[|\\(frac|min|sum|mu|cdot|xi|le|ge|text)\b")


def _probed_copy(page, tmp_path):
    """``page`` with PROBE added, in a tree of symbolic links that mirrors the site."""
    source, copy = SITE, tmp_path / "site"
    for part in page.relative_to(SITE).parts:
        copy.mkdir(exist_ok=True)
        for entry in source.iterdir():
            if entry.name != part:
                (copy / entry.name).symlink_to(entry)
        source, copy = source / part, copy / part
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"),
                    encoding="utf-8")
    return copy


def _measure(browser, page, tmp_path):
    dom = browser(_probed_copy(page, tmp_path), "--dump-dom")
    found = re.search(r'<pre id="sfm-probe"[^>]*>(.*?)</pre>', dom, re.S)  # the theme adds tabindex
    assert found, f"the probe did not run on {page.name} (did MathJax load?)"
    return json.loads(html.unescape(found.group(1)))


def _assert_fits(measured, page, only=""):
    """The page does not scroll sideways, and nothing in it (whose description contains
    ``only``) is cut or scrolls at its right edge."""
    assert measured["scrollWidth"] <= measured["clientWidth"], f"{page.name} scrolls sideways"
    clipped = [entry for entry in measured["clipped"] if only in entry]
    assert clipped == [], f"{page.name}: cut at the right edge: {clipped}"


@pytest.mark.parametrize("name", ["select", "fmri"])
def test_cli_page_has_a_row_per_option_and_fits_the_window(site, browser, tmp_path, name):
    from cli_reference import _commands, documented_actions, option_text

    page = site / "cli" / f"{name}.html"
    _need(page.is_file(), f"cli/{name}.html was not built")
    measured = _measure(browser, page, tmp_path)
    parser = _commands()[name][0]
    assert measured["options"] == [option_text(action) for action in documented_actions(parser)]
    assert len(measured["options"]) > 10
    _assert_fits(measured, page)
    _screenshot(browser, page, tmp_path / f"cli-{name}.png")


def test_cli_index_lists_every_command(site, browser, tmp_path):
    from cli_reference import _commands

    dom = browser(site / "cli.html", "--dump-dom")
    for name in _commands():
        assert re.search(rf'href="cli/{name}\.html"', dom), f"the index does not link {name}"


@pytest.mark.parametrize("path", ["guide/sfm.html", "guide/theory.html",
                                  "api/generated/sfmlearn.SupportFeatureMachine.html"])
def test_formulas_are_typeset_and_fit_the_window(site, browser, tmp_path, path):
    page = site / path
    _need(page.is_file(), f"{path} was not built")
    assert 'src="' in page.read_text(encoding="utf-8") and "mathjax/tex-svg.js" in page.read_text(
        encoding="utf-8"), f"{path} does not load the shipped MathJax"
    measured = _measure(browser, page, tmp_path)
    assert measured["math"] >= 2 and measured["typeset"] >= measured["math"], (
        f"{path}: {measured['typeset']} typeset formulas for {measured['math']} math elements")
    assert measured["errors"] == 0, f"{path}: MathJax reported errors in {measured['errors']} formulas"
    raw = sorted(set(RAW_MATH.findall(measured["text"])))
    assert not RAW_MATH.search(measured["text"]), f"{path}: LaTeX shows as text: {raw}"
    _assert_fits(measured, page, only="math")  # long code lines may scroll, formulas not
    _screenshot(browser, page, tmp_path / "formulas.png")
