"""Every public name is in the API reference (docs/api/*.rst); no Sphinx build needed.

Adding a name to a public ``__all__`` without listing it in an ``autosummary`` block of
docs/api/ fails here, with the page to add it to. A name counts as documented when the
reference lists the same object under the same name anywhere (``sfmlearn.SupportFeature
Machine`` documents ``sfmlearn.selection.SupportFeatureMachine`` too).
"""

import inspect
from collections import defaultdict

from _public_api import public_modules, public_names, reference_entries, resolve

ENTRIES, DOCUMENTED_MODULES = reference_entries()


def _documented_by_name():
    by_name = defaultdict(list)
    for full_name, _page in ENTRIES:
        by_name[full_name.rpartition(".")[2]].append(full_name)
    return by_name


def test_every_reference_entry_exists():
    missing = []
    for full_name, page in ENTRIES:
        try:
            resolve(full_name)
        except (ImportError, AttributeError) as error:
            missing.append(f"{page}: {full_name} ({error})")
    assert not missing, "entries of docs/api that do not exist:\n" + "\n".join(missing)


def test_no_name_is_listed_twice():
    seen = defaultdict(list)
    for full_name, page in ENTRIES:
        seen[full_name].append(page)
    assert {name: pages for name, pages in seen.items() if len(pages) > 1} == {}


def test_every_public_module_has_a_page():
    modules = public_modules(DOCUMENTED_MODULES)
    assert "sfmlearn.selection" in modules and "sfmlearn.cli" not in modules
    missing = [name for name in modules if name not in DOCUMENTED_MODULES]
    assert not missing, ("public modules without an '.. automodule::' in docs/api/*.rst: "
                         f"{missing}")


def test_every_public_name_is_in_the_reference():
    by_name = _documented_by_name()
    missing = []
    for module_name, name, obj in public_names(DOCUMENTED_MODULES):
        if name.startswith("__"):  # __version__: stated on the estimators page
            continue
        if inspect.ismodule(obj):
            if obj.__name__ not in DOCUMENTED_MODULES:
                missing.append(f"{module_name}.{name} (a module: give it a page)")
            continue
        if not any(resolve(candidate) is obj for candidate in by_name.get(name, ())):
            missing.append(f"{module_name}.{name}")
    assert not missing, (
        "public names missing from the API reference; add each to an autosummary block "
        "of the matching docs/api/<subpackage>.rst:\n  " + "\n  ".join(missing))


def test_the_check_sees_a_missing_name(monkeypatch):
    """The completeness check itself: a new public name that is not listed is reported."""
    import sfmlearn.theory as theory

    monkeypatch.setattr(theory, "brand_new_bound", lambda: None, raising=False)
    monkeypatch.setattr(theory, "__all__", [*theory.__all__, "brand_new_bound"])
    by_name = _documented_by_name()
    unlisted = [f"{m}.{n}" for m, n, o in public_names(DOCUMENTED_MODULES)
                if not n.startswith("__") and not inspect.ismodule(o)
                and not any(resolve(c) is o for c in by_name.get(n, ()))]
    assert unlisted == ["sfmlearn.theory.brand_new_bound"]
