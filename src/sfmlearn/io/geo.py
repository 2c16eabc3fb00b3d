"""GEO series matrix files (``GSE..._series_matrix.txt[.gz]``), read with pandas only.

The layout (NCBI GEO, "Series Matrix File(s)"): tab-separated text, values in double
quotes. Header lines start with ``!Series_`` (the series) or ``!Sample_`` (one value
per sample, in the order of ``!Sample_geo_accession``); the sample characteristics are
``!Sample_characteristics_ch1`` lines whose cells are ``key: value`` pairs -- a key is
not tied to a line (samples may list them in different orders), so they are collected
per sample. The data follow between ``!series_matrix_table_begin`` and
``!series_matrix_table_end``: a header ``"ID_REF" "GSM1" "GSM2" ...`` and one row per
probe.

``target`` and ``groups`` name a characteristic key (``"disease state"``, matched
without regard to case) or another ``!Sample_`` field without its prefix
(``source_name_ch1``, ``title``); a ``!Sample_`` line read so must hold one value per
accession. The table's sample columns are matched to the accessions by id. Nothing is
downloaded: the probe annotations live in the platform (GPL) file, so series matrices
come without feature annotations.
"""

import csv
import gzip
import io

import pandas as pd

from .labelled import DataFileError, did_you_mean, labelled_data, listing, refuse_duplicates, refuse_groups_as_target
from .numbers import samples_by_features
from .tables import existing_file, read_text

__all__ = ["is_series_matrix", "read_series_matrix"]

BEGIN, END = "!series_matrix_table_begin", "!series_matrix_table_end"


def _open(path):
    raw = open(path, "rb")
    if raw.read(2) == b"\x1f\x8b":
        raw.seek(0)
        return io.TextIOWrapper(gzip.GzipFile(fileobj=raw), encoding="utf-8-sig")
    raw.seek(0)
    return io.TextIOWrapper(raw, encoding="utf-8-sig")  # a byte-order mark is dropped


def is_series_matrix(path):
    """Whether ``path`` (plain or gzip) starts like a GEO series matrix (``!Series_`` or ``!Sample_``)."""
    name = path.name.lower()
    if not name.endswith((".txt", ".txt.gz", ".tsv", ".tsv.gz")):
        return False
    try:
        with _open(path) as handle:
            for line in handle:
                if line.strip():
                    return line.startswith(("!Series_", "!Sample_", "^SERIES"))
    except (OSError, EOFError, UnicodeError):
        return "series_matrix" in name  # unreadable: let the GEO reader say why
    return False


def _header(handle, name):
    """The ``!Sample_`` fields: {field: [lists of per-sample values]} up to the table's start."""
    fields = {}
    for line in handle:
        if line.startswith(BEGIN):
            return fields
        if line.startswith("!Sample_"):
            cells = next(csv.reader([line.rstrip("\r\n")], delimiter="\t"))
            fields.setdefault(cells[0][len("!Sample_"):], []).append([c.strip() for c in cells[1:]])
    raise DataFileError(f"{name} has no '{BEGIN}' line: it is not a complete GEO series matrix "
                        "(download the whole ..._series_matrix.txt.gz)")


def _characteristics(fields, accessions):
    """{key (lower case): (key as written, {accession: value})} from every characteristics line."""
    keys = {}
    for field, rows in fields.items():
        if not field.startswith("characteristics_"):
            continue
        for row in rows:
            for accession, cell in zip(accessions, row):
                key, colon, value = cell.partition(":")
                if colon and key.strip():
                    entry = keys.setdefault(key.strip().lower(), (key.strip(), {}))
                    entry[1].setdefault(accession, value.strip() or None)  # "key: " -> missing
    return keys


def _source(fields, keys, wanted):
    """What ``wanted`` names: ``("key", key)`` for a characteristic (any case), ``("field",
    field)`` for another ``!Sample_`` field (with or without its prefix), else None."""
    if wanted.lower() in keys:
        return "key", wanted.lower()
    field = wanted.removeprefix("!").removeprefix("Sample_")
    if field in fields and not field.startswith("characteristics_"):
        return "field", field
    return None


def _sample_column(name, fields, keys, accessions, wanted, flag):
    """The per-sample values of characteristic key or field ``wanted`` (None where absent)."""
    source = _source(fields, keys, wanted)
    if source is not None and source[0] == "key":
        values = keys[source[1]][1]
        return pd.Series([values.get(a) for a in accessions], name=wanted, dtype=object)
    if source is not None:
        row = fields[source[1]][0]
        extra = row[len(accessions):]
        if len(row) < len(accessions) or any(extra):
            raise DataFileError(f"{flag} '{wanted}': the !Sample_{source[1]} line of {name} has {len(row)} values "
                                f"for the {len(accessions)} samples of !Sample_geo_accession: the file is damaged; "
                                "download the series matrix again, or name another field")
        return pd.Series([v or None for v in row[:len(accessions)]], name=wanted, dtype=object)
    shown = [keys[k][0] for k in keys]
    hint = did_you_mean(wanted, shown)
    raise DataFileError(f"{flag} '{wanted}': {name} has no such characteristic{hint or ';'} the keys are "
                        f"{listing(shown, 15) or 'none'} (or a !Sample_ field such as source_name_ch1, title)")


def read_series_matrix(path, target, groups=None, *, classes=None):
    """A GEO series matrix as :class:`~sfmlearn.io.labelled.LabelledData` (see the module docstring)."""
    path = existing_file(path, "a GEO series matrix (GSE..._series_matrix.txt.gz)")

    def parse():
        with _open(path) as handle:
            fields = _header(handle, path.name)
            table = pd.read_csv(handle, sep="\t", index_col=0, dtype={"ID_REF": str})  # probe ids are names
        return fields, table
    fields, table = read_text(path, parse, "one row per probe")
    accessions = fields.get("geo_accession", [[]])[0]
    if not accessions:
        raise DataFileError(f"{path.name} has no !Sample_geo_accession line: the samples cannot be matched "
                            "to the table's columns")
    refuse_duplicates(path.name, accessions, what="sample accession")
    if str(table.index.name) != "ID_REF" or table.shape[1] < 1:
        raise DataFileError(f"{path.name}: the table after '{BEGIN}' must start with an ID_REF column "
                            f"and one column per sample; it starts with {table.index.name}")
    if not (table.shape[0] and str(table.index[-1]) == END):
        raise DataFileError(f"{path.name} ends before its '{END}' line: the download is incomplete (the last "
                            "probes would be missing); download the series matrix again")
    table = table.iloc[:-1]
    samples = [str(c) for c in table.columns]
    refuse_duplicates(path.name, samples, what="sample column")
    only_table = [s for s in samples if s not in set(accessions)]
    only_header = [a for a in accessions if a not in set(samples)]
    if only_table or only_header:
        raise DataFileError(f"{path.name}: the table's sample columns and the !Sample_geo_accession ids do not "
                            f"match (table only: {listing(only_table) or 'none'}; header only: "
                            f"{listing(only_header) or 'none'})")
    keys = _characteristics(fields, accessions)
    position = {a: i for i, a in enumerate(accessions)}
    order = [position[s] for s in samples]
    y = _sample_column(path.name, fields, keys, accessions, target, "--target").iloc[order].reset_index(drop=True)
    group_ids = None
    if groups is not None:
        group_ids = _sample_column(path.name, fields, keys, accessions, groups, "--groups").iloc[order]
        group_ids = group_ids.reset_index(drop=True)
        refuse_groups_as_target(target, groups, column=lambda wanted: _source(fields, keys, wanted))
    feature_ids = table.index.astype(str).to_numpy()
    refuse_duplicates(path.name, feature_ids, what="probe id")
    X = samples_by_features(path.name, table, feature_ids, feature="probe")
    return labelled_data(path.name, X, y, feature_ids, sample_ids=samples, groups=group_ids,
                         group_name=groups, classes=classes)
