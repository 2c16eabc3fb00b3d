"""``sfmlearn datasets``: what data ship with sfmlearn, their shapes, citations and terms."""

import numpy as np
import scipy.sparse as sp

from ..datasets import CATALOG, DATASETS, dataset_description, dataset_parts, packaged_megabytes
from ._common import CLIError, print_json


def register(subparsers):
    p = subparsers.add_parser(
        "datasets",
        help="list the datasets that ship with sfmlearn (shapes, classes, citations, terms)",
        description="List every dataset packaged with sfmlearn: shape and class counts of "
        "each split, how to load it in Python, whether 'sfmlearn select --dataset NAME' "
        "can use it, its citation and its terms of use. Give a NAME for its full "
        "description (source, provenance, caveats).",
        epilog="Examples:  sfmlearn datasets\n"
        "           sfmlearn datasets liver\n"
        "           sfmlearn datasets --json",
    )
    p.add_argument("name", nargs="?", help="show the full description of this dataset")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.set_defaults(func=run)


def _describe_part(X, y):
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    return {"n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
            "sparse": bool(sp.issparse(X)),
            "classes": {str(label): int(count) for label, count in zip(labels, counts)}}


def _describe(name):
    entry = CATALOG[name]
    return {
        "name": name,
        "summary": entry.summary,
        "python": f"sfmlearn.datasets.{entry.python}",
        "select": name in DATASETS,
        "parts": {part: _describe_part(X, y) for part, (X, y) in dataset_parts(name).items()},
        "citation": entry.citation,
        "terms": entry.terms,
    }


def _print_entry(d):
    marker = "*" if d["select"] else " "
    print(f"{marker} {d['name']}: {d['summary']}")
    for part, info in d["parts"].items():
        classes = ", ".join(f"{label}: {count}" for label, count in info["classes"].items())
        kind = " sparse" if info["sparse"] else ""
        print(f"    {part}: {info['n_samples']} x {info['n_features']}{kind} ({classes})")
    print(f"    python: {d['python']}")
    print(f"    cite:   {d['citation']}")
    print(f"    terms:  {d['terms']}")


def run(args):
    if args.name is not None:
        if args.name not in CATALOG:
            raise CLIError(f"unknown dataset '{args.name}'; available: {', '.join(CATALOG)}")
        described = _describe(args.name)
        descr = dataset_description(args.name)
        if args.json:
            print_json({**described, "description": descr})
        else:
            _print_entry(described)
            print()
            print(descr)
        return 0
    listing = [_describe(name) for name in CATALOG]
    if args.json:
        print_json({"packaged_megabytes": round(packaged_megabytes(), 2), "datasets": listing})
        return 0
    print(f"{len(listing)} datasets ship with sfmlearn ({packaged_megabytes():.1f} MB). "
          "* = usable as 'sfmlearn select --dataset NAME'; 'sfmlearn datasets NAME' "
          "shows the source and caveats.\n")
    for d in listing:
        _print_entry(d)
    return 0
