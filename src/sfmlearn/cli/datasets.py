"""``sfmlearn datasets``: what data ship with sfmlearn, their shapes, citations and terms."""

from ._common import CLIError, print_json


HELP = "list the datasets that ship with sfmlearn (shapes, classes, citations, terms)"
DESCRIPTION = ("List every dataset packaged with sfmlearn: shape and class counts of "
               "each split, how to load it in Python, whether 'sfmlearn select --dataset NAME' "
               "can use it, its citation and its terms of use. Give a NAME for its full "
               "description (source, provenance, caveats).")
EXAMPLES = ("sfmlearn datasets",
            "sfmlearn datasets liver",
            "sfmlearn datasets --json")
#: argparse re-flows the description and the examples (no raw formatting)
REFLOW = True


def add_arguments(p):
    p.add_argument("name", nargs="?", help="show the full description of this dataset")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")


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
    from ..analysis import dataset_names, describe_dataset, describe_datasets

    if args.name is not None:
        if args.name not in dataset_names():
            raise CLIError(f"unknown dataset '{args.name}'; available: {', '.join(dataset_names())}")
        described = describe_dataset(args.name, description=True)
        if args.json:
            print_json(described)
        else:
            description = described.pop("description")
            _print_entry(described)
            print()
            print(description)
        return 0
    catalogue = describe_datasets()
    if args.json:
        print_json({**catalogue, "packaged_megabytes": round(catalogue["packaged_megabytes"], 2)})
        return 0
    listing = catalogue["datasets"]
    print(f"{len(listing)} datasets ship with sfmlearn ({catalogue['packaged_megabytes']:.1f} MB). "
          "* = usable as 'sfmlearn select --dataset NAME'; 'sfmlearn datasets NAME' "
          "shows the source and caveats.\n")
    for d in listing:
        _print_entry(d)
    return 0
