"""The named datasets that ship with sfmlearn (``sfmlearn datasets``, ``select --dataset NAME``).

Public through :mod:`sfmlearn.datasets`. :data:`CATALOG` lists every dataset that ships
with sfmlearn (a :class:`CatalogEntry`: one-line summary, how to load it in Python, its
citation and terms, and how to get its parts -- splits or views -- as ``(X, y)`` pairs
for listings); :func:`dataset_parts` gets those parts, :func:`dataset_description` the
full description and :func:`packaged_megabytes` the size of everything shipped.
:data:`DATASETS` holds the subset usable by ``sfmlearn select``: binary problems with a
training split. :func:`load_named` loads one of them as a Bunch with ``X_train``,
``y_train``, ``feature_names`` and, when the data come with an independent test split,
``X_test`` and ``y_test`` (and ``groups_train`` when samples come in groups that must
not be split). The wrappers below adapt the loaders' own Bunches; the loaders
themselves are not changed.
"""

import json
from dataclasses import dataclass
from typing import Callable, Optional

from sklearn.utils import Bunch

from ._base import data_path, read_descr
from ._docs import datasets_doc
from ._microarray import load_colon, load_leukemia
from ._nips2003 import load_nips2003
from ._uci import load_uci

__all__ = ["CATALOG", "DATASETS", "CatalogEntry", "dataset_description", "dataset_parts", "load_named",
           "packaged_megabytes"]

_UCI_TERMS = ("UCI citation request (see DESCR); current UCI licence (believed CC BY 4.0) "
              "unverified")
_NIPS_CITATION = ("Guyon, Gunn, Ben-Hur, Dror, Result analysis of the NIPS 2003 feature "
                  "selection challenge, NIPS 17 (2005)")
_NIPS_TERMS = ("NIPS 2003 / UCI data: cite Guyon et al. 2005; UCI licence (believed CC BY 4.0) "
               "unverified")


@dataclass(frozen=True)
class CatalogEntry:
    """One shipped dataset: what it is, how to load it, whom to cite, on what terms.

    Parameters
    ----------
    summary : str
        One line: the data, their shape and classes (``sfmlearn datasets`` prints it).
    python : str
        The call that loads them, e.g. ``"load_leukemia()"``.
    citation : str
        Whom to cite.
    terms : str
        The licence or terms of use.
    descr : str
        Name of the full description (``datasets/descr/<descr>.rst``).
    select : callable, optional
        Loader returning a Bunch with ``X_train``, ``y_train`` and ``feature_names`` (the
        shape ``sfmlearn select --dataset`` uses), when the data fit it.
    parts : callable, optional
        ``{part name: (X, y)}`` for data without such a loader.
    not_selectable : str, optional
        For data without a ``select`` loader: why they do not fit that shape (said by
        :func:`load_named`).

    Examples
    --------
    >>> from sfmlearn.datasets import CATALOG
    >>> CATALOG["leukemia"].python
    'load_leukemia()'
    """

    summary: str
    python: str
    citation: str
    terms: str
    descr: str  # name of the DESCR file (datasets/descr/<descr>.rst)
    select: Optional[Callable[[], Bunch]] = None  # loader in the select shape, if usable
    parts: Optional[Callable[[], dict]] = None  # {part name: (X, y)} for datasets without select
    not_selectable: str = ""  # why the data have no select loader


def _named_labels(bunch):
    """The class names of a 0/1 ``target`` (clearer output than 0/1)."""
    return bunch.target_names[bunch.target]


def _single_split(load):
    def loader():
        bunch = load()
        split = Bunch(X_train=bunch.data, y_train=_named_labels(bunch),
                      feature_names=bunch.feature_names, DESCR=bunch.DESCR)
        if "groups" in bunch:  # e.g. Musk1 molecules: cross-validate by group
            split.groups_train = bunch.groups
        return split
    return loader


def _uci(name):
    return _single_split(lambda: load_uci(name))


def _nips(name):
    def loader():
        bunch = load_nips2003(name)
        split = Bunch(X_train=bunch.X_train, y_train=bunch.y_train,
                      feature_names=bunch.feature_names, DESCR=bunch.DESCR)
        if "X_valid" in bunch:
            split.update(X_test=bunch.X_valid, y_test=bunch.y_valid)
        return split
    return loader


def _dorothea_parts():
    bunch = load_nips2003("dorothea")
    return {"valid": (bunch.X_valid, bunch.y_valid)}


def _haxby_parts():
    from ._haxby import load_haxby  # nibabel only when the fMRI data are read

    slice_view = load_haxby("slice")
    brain = load_haxby("25mm", mask="brain")
    return {"slice view (slice mask)": (slice_view.data, slice_view.target),
            "25mm view (brain mask)": (brain.data, brain.target)}


def _uci_entry(name, descr, summary, citation, terms=_UCI_TERMS):
    return CatalogEntry(summary, f'load_uci("{name}")', citation, terms, descr, select=_uci(name))


CATALOG = {
    "leukemia": CatalogEntry(
        "Golub 1999 ALL/AML microarray, 7129 probes, train 38 / test 34", "load_leukemia()",
        "Golub et al., Science 286:531-537 (1999)",
        "no licence stated (Whitehead/Broad, released with the paper); cite Golub et al.",
        "golub_leukemia", select=load_leukemia),
    "colon": CatalogEntry(
        "Alon 1999 colon tissue microarray, normal vs tumour, 2000 genes", "load_colon()",
        "Alon et al., PNAS 96:6745-6750 (1999)",
        "no explicit data licence (Alon et al., via Bioconductor colonCA); cite Alon et al.",
        "alon_colon", select=_single_split(load_colon)),
    "wpbc": _uci_entry(
        "wpbc", "uci_wpbc", "Wisconsin prognostic breast cancer, recurrence N/R, 32 features",
        "Street, Mangasarian, Wolberg, ICML 1995"),
    "wpbc24": _uci_entry(
        "wpbc24", "uci_wpbc", "WPBC: recurrence within 24 months (ML05 Table 1)",
        "Street, Mangasarian, Wolberg, ICML 1995"),
    "wpbc60": _uci_entry(
        "wpbc60", "uci_wpbc", "WPBC: recurrence within 60 months (ML05 Table 1)",
        "Street, Mangasarian, Wolberg, ICML 1995"),
    "liver": _uci_entry(
        "liver", "uci_liver_bupa", "BUPA liver disorders; CAVEAT: class = 'selector' field",
        "BUPA Medical Research Ltd.; donor R. S. Forsyth (1990)"),
    "cleveland": _uci_entry(
        "cleveland", "uci_heart_cleveland", "Cleveland heart disease, num = 0 vs num > 0",
        "Detrano et al., Am. J. Cardiol. 64:304-310 (1989)",
        "UCI publication request: name the principal investigators (see DESCR); "
        "UCI licence unverified"),
    "ionosphere": _uci_entry(
        "ionosphere", "uci_ionosphere", "Ionosphere radar returns, good vs bad",
        "Sigillito et al., Johns Hopkins APL Tech. Digest 10 (1989)"),
    "pima": _uci_entry(
        "pima", "uci_pima", "Pima Indians diabetes (zeros stand for missing values)",
        "Smith et al., Symp. Comput. Appl. Med. Care (1988)",
        "UNCLEAR: NIDDK data withdrawn from UCI; redistribution terms unverified"),
    "breast_cancer_wisconsin": _uci_entry(
        "breast_cancer_wisconsin", "uci_breast_cancer_wisconsin",
        "Wisconsin breast cancer (original, 9 cytology scores)",
        "Wolberg & Mangasarian, PNAS 87:9193-9196 (1990)",
        "UCI citation request: acknowledge Dr W. H. Wolberg, Univ. of Wisconsin Hospitals; "
        "UCI licence unverified"),
    "sonar": _uci_entry(
        "sonar", "uci_sonar", "Sonar returns, mines vs rocks",
        "Gorman & Sejnowski, Neural Networks 1:75-89 (1988)"),
    "musk1": _uci_entry(
        "musk1", "uci_musk1", "Musk v1 conformations (molecules as groups)",
        "Dietterich, Lathrop, Lozano-Perez, Artif. Intell. 89:31-71 (1997)"),
    "arcene": CatalogEntry("NIPS 2003 ARCENE mass spectra, train 100 / valid 100 as test",
                           'load_nips2003("arcene")', _NIPS_CITATION, _NIPS_TERMS,
                           "nips2003_arcene", select=_nips("arcene")),
    "madelon": CatalogEntry("NIPS 2003 MADELON synthetic, 20 relevant of 500, valid as test",
                            'load_nips2003("madelon")', _NIPS_CITATION, _NIPS_TERMS,
                            "nips2003_madelon", select=_nips("madelon")),
    "dexter": CatalogEntry("NIPS 2003 DEXTER text, sparse, training split only",
                           'load_nips2003("dexter")', _NIPS_CITATION, _NIPS_TERMS,
                           "nips2003_dexter", select=_nips("dexter")),
    "dorothea": CatalogEntry("NIPS 2003 DOROTHEA drug binding, sparse binary, validation split "
                             "only (not for select)", 'load_nips2003("dorothea")', _NIPS_CITATION,
                             _NIPS_TERMS + "; acknowledge DuPont / KDD Cup 2001",
                             "nips2003_dorothea_valid", parts=_dorothea_parts,
                             not_selectable="only its validation split ships (the training data could not "
                                            "be obtained), so there is no training split"),
    "haxby": CatalogEntry("Haxby 2001 fMRI subject 1, 8 categories + rest, 12 runs (not for "
                          "select: multi-class)", 'load_haxby("slice") / load_haxby("25mm")',
                          "Haxby et al., Science 293:2425-2430 (2001); via PyMVPA",
                          "CC BY-SA 3.0: attribute Haxby et al. 2001 / PyMVPA, share derived data "
                          "alike", "haxby2001", parts=_haxby_parts,
                          not_selectable="its volumes belong to 8 categories and rest (multi-class), not two classes"),
}

DATASETS = {
    name: {"loader": entry.select, "summary": entry.summary, "citation": entry.citation,
           "terms": entry.terms}
    for name, entry in CATALOG.items() if entry.select is not None
}


def load_named(name):
    """Load a named dataset as a Bunch with at least X_train, y_train, feature_names.

    Parameters
    ----------
    name : str
        A key of :data:`CATALOG` whose entry has a ``select`` loader (not "haxby", which is
        multi-class, nor "dorothea", which has no training split: their errors name their
        loaders).

    Returns
    -------
    sklearn.utils.Bunch
        With ``X_train``, ``y_train``, ``feature_names`` and, where the data have one, an
        independent test split.

    Examples
    --------
    >>> from sfmlearn.datasets import load_named
    >>> load_named("colon").X_train.shape
    (62, 2000)
    """
    if name in CATALOG and name not in DATASETS:
        entry = CATALOG[name]
        raise ValueError(
            f"dataset '{name}' ships with sfmlearn but cannot be loaded with load_named, which gives binary "
            f"problems with a training split: {entry.not_selectable}. Load it with {entry.python}, or its "
            f"parts as (X, y) pairs with dataset_parts('{name}')")
    try:
        entry = DATASETS[name]
    except KeyError:
        raise ValueError(
            f"unknown dataset '{name}'; available: {', '.join(sorted(DATASETS))}"
        ) from None
    return entry["loader"]()


def _catalogued(name):
    try:
        return CATALOG[name]
    except KeyError:
        raise ValueError(f"unknown dataset '{name}'; available: {', '.join(CATALOG)}") from None


@datasets_doc
def dataset_parts(name):
    """{part name: (X, y)} of any catalogued dataset (train/test splits or views).

    Parameters
    ----------
    %(catalog_name)s

    Returns
    -------
    dict of str to tuple
        ``{part name: (X, y)}``.

    Examples
    --------
    >>> from sfmlearn.datasets import dataset_parts
    >>> {part: X.shape for part, (X, y) in dataset_parts("leukemia").items()}
    {'train': (38, 7129), 'test': (34, 7129)}
    """
    entry = _catalogued(name)
    if entry.parts is not None:
        return entry.parts()
    bunch = entry.select()
    parts = {"train": (bunch.X_train, bunch.y_train)}
    if "X_test" in bunch:
        parts["test"] = (bunch.X_test, bunch.y_test)
    return parts


@datasets_doc
def dataset_description(name):
    """The full description of a catalogued dataset: source, provenance, caveats, terms.

    Parameters
    ----------
    %(catalog_name)s

    Returns
    -------
    str
        The description (reStructuredText), also the ``DESCR`` of the loaded Bunch.

    Examples
    --------
    >>> from sfmlearn.datasets import dataset_description
    >>> dataset_description("leukemia").splitlines()[0]
    'Golub et al. (1999) leukemia data (ALL vs AML)'
    """
    return read_descr(_catalogued(name).descr)


def packaged_megabytes():
    """Size in megabytes of the data files shipped with sfmlearn (those of its manifest).

    Returns
    -------
    float
        Megabytes (10^6 bytes).

    Examples
    --------
    >>> from sfmlearn.datasets import packaged_megabytes
    >>> 1 < packaged_megabytes() < 50
    True
    """
    manifest = json.loads(data_path("MANIFEST.json").read_text())
    return sum(data_path(f).stat().st_size for f in manifest) / 1e6
