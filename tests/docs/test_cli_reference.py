"""docs/_ext/cli_reference.py: one page per command, a table row per option of the parser.

The option table's cells come from argparse's own records (option strings, metavar,
nargs, default, help); these tests pin how each kind of argument is written, and that
the generated pages follow the command list (a new command gets a page, a removed one
loses it). The rendered pages are checked in a browser by tests/docs/test_site.py.
"""

import argparse
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))
pytest.importorskip("sphinx")

import cli_reference as ref  # noqa: E402


def _parser():
    parser = argparse.ArgumentParser(prog="sfmlearn demo")
    parser.add_argument("path", nargs="?", help="the data")
    parser.add_argument("ids", nargs="*", metavar="ID", help="result ids")
    group = parser.add_argument_group("model")
    group.add_argument("--classes", nargs=2, metavar=("A", "B"), help="two classes")
    group.add_argument("--k", nargs="+", type=int, metavar="K", help="sizes")
    group.add_argument("--method", choices=["sfm", "weston"], default="sfm",
                       help="the method (default %(default)s; one of %(choices)s)")
    group.add_argument("--cv", type=int, default=5, metavar="K", help="folds")
    group.add_argument("--quiet", action="store_true", help="no progress")
    group.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="overrides")
    group.add_argument("--hidden", help=argparse.SUPPRESS)
    return parser


def _action(parser, dest):
    return next(action for action in parser._actions if action.dest == dest)


@pytest.mark.parametrize("dest, option, argument, default", [
    ("path", "path", "[path]", ""),
    ("ids", "ID", "[ID ...]", ""),
    ("classes", "--classes", "A B", ""),
    ("k", "--k", "K [K ...]", ""),
    ("method", "--method", "{sfm, weston}", "sfm"),
    ("cv", "--cv", "K", "5"),
    ("quiet", "--quiet", "", ""),
    ("set", "--set", "KEY=VALUE", ""),
    ("help", "-h, --help", "", ""),
])
def test_each_kind_of_argument_is_written_as_typed(dest, option, argument, default):
    action = _action(_parser(), dest)
    assert (ref.option_text(action), ref.argument_text(action), ref.default_text(action)) == (
        option, argument, default)


def test_help_fields_are_filled_in():
    parser = _parser()
    assert ref.help_text(_action(parser, "method"), parser.prog) == (
        "the method (default sfm; one of sfm, weston)")


def test_every_visible_argument_gets_a_row_in_its_group():
    parser = _parser()
    groups = dict(ref._argument_groups(parser))
    assert [action.dest for action in groups["model"]] == ["classes", "k", "method", "cv", "quiet", "set"]
    assert "hidden" not in [action.dest for action in ref.documented_actions(parser)]
    assert len(ref.documented_actions(parser)) == len(parser._actions) - 1  # all but --hidden


def test_the_real_commands_are_all_documented():
    from sfmlearn.cli import COMMANDS

    commands = ref._commands()
    assert len(commands) == len(COMMANDS) and "select" in commands
    for name, (parser, one_line) in commands.items():
        assert parser.prog == f"sfmlearn {name}" and one_line
        options = {option for action in ref.documented_actions(parser) for option in action.option_strings}
        assert "--help" in options


def test_pages_follow_the_commands(tmp_path):
    folder = tmp_path / ref.PAGES
    folder.mkdir()
    (folder / "retired.rst").write_text("a command that no longer exists\n")
    ref.write_pages(SimpleNamespace(srcdir=str(tmp_path)))
    names = sorted(page.stem for page in folder.glob("*.rst"))
    assert names == sorted(ref._commands())
    page = (folder / "select.rst").read_text()
    assert "sfmlearn select\n===============" in page and ".. sfmlearn-command:: select" in page
    before = (folder / "select.rst").stat().st_mtime_ns
    ref.write_pages(SimpleNamespace(srcdir=str(tmp_path)))  # unchanged text: not rewritten
    assert (folder / "select.rst").stat().st_mtime_ns == before


def test_description_keeps_indented_lines_as_a_block_between_its_paragraphs():
    text = 'summary.json (every key optional):\n  {"title": "..."}\n  {"sections": []}\nPaths are\nrelative.\n\nLast.'
    parts = ref._paragraphs(text)
    assert [type(part).__name__ for part in parts] == ["paragraph", "literal_block", "paragraph", "paragraph"]
    assert parts[1].astext() == '{"title": "..."}\n{"sections": []}'
    assert parts[2].astext() == "Paths are relative."
