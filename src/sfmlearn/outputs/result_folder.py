"""A result folder: figures, tables and maps under one directory, listed in its ``summary.json``.

The format (every key optional)::

    {
      "title": "fMRI decoding: Haxby, faces vs houses",
      "description": "One paragraph saying what was run.",
      "summary": {"participants": 6, "voxels": 39912, "accuracy": 0.83},
      "sections": [{"title": "...", "text": "...", "facts": {...},
                    "figures": [{"path": "maps/weights.png", "caption": "SFM weights"}],
                    "tables": [{"path": "folds.csv", "caption": "per participant"}]}],
      "maps": [{"path": "maps/weights.nii.gz", "caption": "..."}],
      "figures": ["curve.png", {"path": "other.png", "caption": "..."}],
      "tables": ["scores.csv"]
    }

Paths are relative to the folder. :class:`ResultFolder` writes and reads this format:

* **writing** -- :meth:`~ResultFolder.add_map`, :meth:`~ResultFolder.add_figure` and
  :meth:`~ResultFolder.add_table` write ``maps/NAME.nii.gz``, ``figures/NAME.png`` and
  ``tables/NAME.csv`` atomically (:mod:`sfmlearn.outputs.atomic`) and record them with their
  captions in :attr:`~ResultFolder.maps`, :attr:`~ResultFolder.figures` and
  :attr:`~ResultFolder.tables`; :meth:`~ResultFolder.write_summary` writes
  ``summary.json``;
* **reading** -- :meth:`ResultFolder.open` reads ``summary.json`` (:func:`read_summary`);
  :meth:`~ResultFolder.file` resolves a listed path and refuses one that leaves the
  folder -- an absolute path, a ``../`` or a symbolic link whose target lies outside
  (``ValueError``) -- so a summary.json from elsewhere cannot pull arbitrary files of the
  machine into, say, a report that is then mailed around; :meth:`~ResultFolder.read_table`
  and :meth:`~ResultFolder.read_map` load listed tables (CSV/TSV) and NIfTI maps. Every
  file read is recorded in :attr:`~ResultFolder.inputs`;
  :func:`load_result_folder` loads every listed table, map and figure at once
  (:class:`FolderContents`); :func:`listed_files`, :func:`summary_sections` and
  :func:`summary_text` check the entries of a summary (a mistyped entry raises
  ``ValueError`` naming its key).
"""

import json
from pathlib import Path

from .atomic import save_figure, save_nifti, to_jsonable, write_csv, write_json

__all__ = ["SUMMARY", "TABLE_SEPARATORS", "FolderContents", "ResultFolder", "listed_files", "load_result_folder",
           "read_summary", "summary_sections", "summary_text"]

#: The name of the file that describes a result folder.
SUMMARY = "summary.json"
#: Table suffixes a result folder may list, with their separators.
TABLE_SEPARATORS = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": ","}


def read_summary(source):
    """``(path, summary)`` of ``source``: a folder (its summary.json) or a JSON file.

    Parameters
    ----------
    source : path-like
        A result folder (its ``summary.json`` is read) or a JSON file.

    Returns
    -------
    path : pathlib.Path
        The JSON file read.
    summary : dict
        Its content (the format of the module docstring).

    Raises
    ------
    FileNotFoundError
        When there is no such file (or the folder has no summary.json).
    ValueError
        When the file is not UTF-8 JSON holding an object (a byte-order mark is allowed),
        or is a folder; the message says to write it again.

    Examples
    --------
    A folder holding only a summary.json with a title:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import read_summary, write_json
    >>> folder = tempfile.TemporaryDirectory()
    >>> _ = write_json(Path(folder.name) / "summary.json", {"title": "SFM on leukemia"})
    >>> path, summary = read_summary(folder.name)
    >>> path.name, summary
    ('summary.json', {'title': 'SFM on leukemia'})
    >>> folder.cleanup()
    """
    source = Path(source)
    path = source / SUMMARY if source.is_dir() else source
    if not path.exists():
        if source.is_dir():
            raise FileNotFoundError(f"{source} has no {SUMMARY}; a result directory needs one "
                                    "(see sfmlearn report --help for its format)")
        raise FileNotFoundError(f"no such file or directory: {source}")
    if path.is_dir():
        raise ValueError(f"{path} is a folder, not a JSON summary; remove it and rerun the command that wrote "
                         "the results")
    try:
        summary = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc}): it is damaged or was cut short; rerun the command "
                         "that wrote it") from exc
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not UTF-8 text, so not a JSON summary") from exc
    except RecursionError as exc:
        raise ValueError(f"{path} is nested too deeply to be a result summary") from exc
    try:
        json.dumps(summary, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{path} holds a string that is not valid Unicode (a lone surrogate such as "
                         "\\ud800); fix that text") from exc
    except RecursionError as exc:
        raise ValueError(f"{path} is nested too deeply to be a result summary") from exc
    if not isinstance(summary, dict):
        raise ValueError(f"{path} must hold a JSON object (keys title, summary, sections, figures, tables)")
    return path, summary


class ResultFolder:
    """The files of one result under ``path``, described by its summary.json (module docstring).

    Parameters
    ----------
    path : path
        The folder (created by :meth:`add_map` and friends where missing).
    summary : dict, optional
        The summary read from the folder (:meth:`open` sets it).

    Attributes
    ----------
    maps, figures, tables : list of dict
        ``{"path", "caption"}`` of every map, figure and table added, in order.
    inputs : list of pathlib.Path
        Every file :meth:`file` resolved (summary.json first when opened).

    Examples
    --------
    Write a table and a summary, then open the folder again and read the table back:

    >>> import tempfile
    >>> import pandas as pd
    >>> from sfmlearn.outputs import ResultFolder
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = ResultFolder(folder.name)
    >>> out.add_table("scores", pd.DataFrame({"fold": [0, 1], "accuracy": [0.9, 1.0]}), "per fold")
    'tables/scores.csv'
    >>> _ = out.write_summary({"title": "demo", "tables": out.tables})
    >>> again = ResultFolder.open(folder.name)
    >>> again.summary["tables"][0]["caption"]
    'per fold'
    >>> again.read_table("tables/scores.csv")["accuracy"].tolist()
    [0.9, 1.0]
    >>> folder.cleanup()
    """

    def __init__(self, path, summary=None):
        self.path = Path(path)
        self.summary = summary
        #: ``{"path", "caption"}`` of every map, figure and table added, in order
        self.maps, self.figures, self.tables = [], [], []
        #: every file :meth:`file` resolved (summary.json first when opened)
        self.inputs = []

    # ------------------------------------------------------------------------- writing

    def _written(self, kind, relative, caption):
        getattr(self, kind).append({"path": relative, "caption": caption})
        return relative

    def add_map(self, name, image, caption):
        """Write the NIfTI ``image`` as ``maps/NAME.nii.gz``; returns its relative path."""
        relative = f"maps/{name}.nii.gz"
        save_nifti(image, self.target(relative))
        return self._written("maps", relative, caption)

    def add_figure(self, name, figure, caption, *, dpi=110):
        """Write a matplotlib figure as ``figures/NAME.png``; returns its relative path."""
        relative = f"figures/{name}.png"
        save_figure(figure, self.target(relative), dpi=dpi)
        return self._written("figures", relative, caption)

    def add_table(self, name, frame, caption):
        """Write a DataFrame as ``tables/NAME.csv`` (no index); returns its relative path."""
        relative = f"tables/{name}.csv"
        write_csv(frame, self.target(relative), index=False)
        return self._written("tables", relative, caption)

    def add_written(self, kind, relative, caption):
        """Record a file someone else wrote into the folder (``kind``: maps, figures or tables)."""
        return self._written(kind, relative, caption)

    def target(self, relative):
        """``path / relative``, its subfolder created: where to write a file the folder will list."""
        path = self.path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def write_summary(self, summary):
        """Write ``summary`` as summary.json atomically; returns it in JSON types (:func:`to_jsonable`)."""
        self.summary = to_jsonable(summary)
        write_json(self.path / SUMMARY, self.summary)
        return self.summary

    # ------------------------------------------------------------------------- reading

    @classmethod
    def open(cls, source):
        """The result folder of ``source`` (a folder, or a summary JSON file in one)."""
        path, summary = read_summary(source)
        folder = cls(path.parent, summary)
        folder.inputs.append(path)
        return folder

    def inside(self, relative):
        """Whether ``relative`` names a path inside the folder (after resolving links)."""
        root = self.path.resolve()
        return not Path(relative).is_absolute() and (self.path / relative).resolve().is_relative_to(root)

    def mentioned(self):
        """Every file inside the folder that a string of the summary names, existing or not
        (a report is never written over one of them, embedded or not)."""
        strings, stack = [], [self.summary]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)
            elif isinstance(value, str) and value and "\0" not in value and len(value) < 4096:
                strings.append(value)
        return [self.path / text for text in strings if self.inside(text)]

    def file(self, relative, kind):
        """``path / relative`` for a listed file (recorded in :attr:`inputs`).

        ValueError when it would leave the folder, FileNotFoundError when it is missing;
        ``kind`` ("figure", "table", ...) names it in both.
        """
        if not self.inside(relative):
            raise ValueError(f"{SUMMARY} lists the {kind} {relative}, which lies outside {self.path}; "
                             "a report embeds only files inside the result directory")
        path = self.path / relative
        if not path.is_file():
            raise FileNotFoundError(f"{SUMMARY} lists the {kind} {relative}, but {path} does not exist")
        self.inputs.append(path)
        return path

    def read_table(self, relative):
        """A listed CSV/TSV table as a DataFrame (ValueError for other suffixes or unreadable text)."""
        import pandas as pd

        path = self.file(relative, "table")
        sep = TABLE_SEPARATORS.get(path.suffix.lower())
        if sep is None:
            raise ValueError(f"{relative} is not a table: only {', '.join(TABLE_SEPARATORS)} files are")
        try:
            return pd.read_csv(path, sep=sep)
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise ValueError(f"{SUMMARY} lists the table {relative}, but it is not a readable "
                             f"UTF-8 CSV/TSV table ({' '.join(str(exc).split())})") from exc

    def read_map(self, relative):
        """A listed NIfTI map as a nibabel image."""
        import nibabel as nib

        return nib.load(self.file(relative, "map"))


# ----------------------------------------------------------------------------- the entries


def summary_text(value, where):
    """A scalar of a summary shown as text (None stays None); ValueError for lists and objects."""
    if value is not None and not isinstance(value, (str, int, float, bool)):
        raise ValueError(f"{SUMMARY}: {where} must be text; got {json.dumps(value)[:80]}")
    return None if value is None else str(value)


def listed_files(items, kind, path_key="path"):
    """The entries of a summary's ``kind`` list (paths or ``{path, caption}`` objects) as
    dicts, their types checked (ValueError naming the entry)."""
    if items is None:
        return []
    if isinstance(items, (str, dict)):
        items = [items]
    if not isinstance(items, list):
        raise ValueError(f"{SUMMARY}: '{kind}' must be a list of paths or {{\"path\": ..., "
                         f"\"caption\": ...}} objects; got {json.dumps(items)[:80]}")
    out = []
    for number, item in enumerate(items, 1):
        if isinstance(item, str):
            item = {path_key: item}
        if not isinstance(item, dict) or path_key not in item:
            raise ValueError(f"{SUMMARY}: every entry of '{kind}' needs a path; got {item!r}")
        if not isinstance(item[path_key], str) or not item[path_key]:
            raise ValueError(f"{SUMMARY}: the path of '{kind}' entry {number} must be a file name; "
                             f"got {item[path_key]!r}")
        for key in ("caption", "title"):
            summary_text(item.get(key), f"the {key} of '{kind}' entry {number}")
        max_rows = item.get("max_rows", 200)
        if isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 0:
            raise ValueError(f"{SUMMARY}: max_rows of '{kind}' entry {number} must be a whole number "
                             f">= 0; got {max_rows!r}")
        out.append(item)
    return out


def summary_sections(summary):
    """The ``sections`` of a summary, each checked (a title; text, id and facts of the right type)."""
    sections = summary.get("sections")
    if sections is None:
        return []
    if not isinstance(sections, list):
        raise ValueError(f"{SUMMARY}: 'sections' must be a list of objects with a title; "
                         f"got {json.dumps(sections)[:80]}")
    for spec in sections:
        if not isinstance(spec, dict) or "title" not in spec:
            raise ValueError(f"{SUMMARY}: every entry of 'sections' needs a title; got {spec!r}")
        summary_text(spec["title"], "a section title")
        summary_text(spec.get("text"), f"the text of section {spec['title']!r}")
        summary_text(spec.get("id"), f"the id of section {spec['title']!r}")
        if spec.get("facts") is not None and not isinstance(spec["facts"], dict):
            raise ValueError(f"{SUMMARY}: the facts of section {spec['title']!r} must be an object "
                             f"{{\"label\": value}}; got {json.dumps(spec['facts'])[:80]}")
    return sections


# ------------------------------------------------------------------------ a whole folder


class FolderContents:
    """A result folder as read back by :func:`load_result_folder`.

    Parameters
    ----------
    path : pathlib.Path
        The result folder.
    summary : dict
        Its summary.json.
    tables : dict of str to pandas.DataFrame
        The listed tables by name (file name without suffix, ``decoding_folds``).
    maps : dict of str to nibabel image
        The listed NIfTI maps by name (``sfm_weights``).
    figures : dict of str to pathlib.Path
        The listed figures by name.

    Examples
    --------
    :func:`load_result_folder` fills one from a folder; by hand:

    >>> from sfmlearn.outputs.result_folder import FolderContents
    >>> FolderContents("results", {"title": "Demo"}, figures={"curve": "results/figures/curve.png"})
    FolderContents(path='results', tables=[], maps=[], figures=['curve'])
    """

    def __init__(self, path, summary, tables=None, maps=None, figures=None):
        self.path, self.summary = Path(path), summary
        self.tables, self.maps, self.figures = tables or {}, maps or {}, figures or {}

    def __repr__(self):
        return (f"FolderContents(path={str(self.path)!r}, tables={list(self.tables)}, maps={list(self.maps)}, "
                f"figures={list(self.figures)})")


def load_result_folder(path):
    """Read a result folder (``sfmlearn fmri --out``): every table, map and figure it lists.

    Paths leaving the folder are refused (:meth:`ResultFolder.file`).

    Parameters
    ----------
    path : path-like
        The result folder, or its summary.json.

    Returns
    -------
    FolderContents
        The summary, and the tables, maps and figure paths by name.

    Examples
    --------
    >>> import tempfile
    >>> import pandas as pd
    >>> from sfmlearn.outputs.result_folder import ResultFolder, load_result_folder
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = ResultFolder(folder.name)
    >>> _ = out.add_table("folds", pd.DataFrame({"fold": [1, 2], "accuracy": [0.9, 1.0]}), "per fold")
    >>> _ = out.write_summary({"title": "Demo", "summary": {"accuracy": 0.95}, "tables": out.tables})
    >>> contents = load_result_folder(folder.name)
    >>> contents.summary["summary"], contents.tables["folds"]["accuracy"].tolist(), contents.maps
    ({'accuracy': 0.95}, [0.9, 1.0], {})
    >>> folder.cleanup()
    """
    folder = ResultFolder.open(path)
    summary = folder.summary
    return FolderContents(
        path=folder.path, summary=summary,
        tables={_stem(e): folder.read_table(e["path"]) for e in listed_files(summary.get("tables"), "tables")},
        maps={_stem(e): folder.read_map(e["path"]) for e in listed_files(summary.get("maps"), "maps")},
        figures={_stem(e): folder.file(e["path"], "figure")
                 for e in listed_files(summary.get("figures"), "figures")})


def _stem(entry):
    """``maps/consistency_q2.5.nii.gz`` -> ``consistency_q2.5``."""
    name = Path(entry["path"]).name
    for suffix in (".nii.gz", ".nii", ".png", ".csv"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name
