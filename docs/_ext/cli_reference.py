"""The command-line reference, generated from the parser itself.

When the build starts, every subcommand of :func:`sfmlearn.cli.build_parser` gets a page
``docs/cli/NAME.rst`` (rewritten only when its text changes; pages of removed commands are
deleted) that holds ``.. sfmlearn-command:: NAME``. That directive renders the command's
description, its usage line, one table per argument group (option, argument, default,
help: the rows of ``sfmlearn NAME --help``) and its examples. ``.. sfmlearn-cli::`` on
docs/cli.rst lists the commands, one line each, and holds the toctree of their pages. A new
command or option appears in the docs without editing them.
"""

import argparse
import itertools
import os
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

PAGES = "cli"  # folder of the generated pages, next to conf.py
#: argparse wraps the usage line at $COLUMNS: fixed so the page is stable, and as wide as the
#: page's text column at 1366 pixels (longer lines wrap in the browser)
USAGE_COLUMNS = "76"


def _subcommands(parser):
    for action in parser._actions:  # argparse keeps its subparsers here, no public accessor
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _commands():
    """``{name: (subparser, one-line help)}`` in the order of ``sfmlearn --help``."""
    from sfmlearn.cli import COMMANDS, build_parser

    parsers = _subcommands(build_parser())
    return {name: (sub, command.HELP) for (name, sub), command in zip(parsers.items(), COMMANDS)}


def _argument_groups(parser):
    """``[(title, actions)]`` of ``parser`` as its --help shows them (hidden options left out)."""
    groups = []
    for group in parser._action_groups:  # argparse has no public accessor for its groups
        actions = [action for action in group._group_actions if action.help != argparse.SUPPRESS]
        if actions:
            groups.append((group.title, actions))
    return groups


def documented_actions(parser):
    """Every argument of ``parser`` that gets a row in its reference page."""
    return [action for _title, actions in _argument_groups(parser) for action in actions]


def _metavar(action):
    if action.metavar is not None:
        return action.metavar
    if action.choices is not None:
        return "{" + ", ".join(map(str, action.choices)) + "}"
    return action.dest if not action.option_strings else action.dest.upper()


def argument_text(action):
    """What follows the option on the command line: ``K``, ``A B``, ``[ID ...]``; '' for flags."""
    if action.nargs == 0:
        return ""
    metavar = _metavar(action)
    names = metavar if isinstance(metavar, tuple) else (metavar,)
    if not action.option_strings and action.nargs in (None, 1):
        return ""  # a positional's name is its option column
    one = names[0]
    forms = {None: one, "?": f"[{one}]", "*": f"[{one} ...]", "+": f"{one} [{one} ...]"}
    if action.nargs in forms:
        return forms[action.nargs]
    if isinstance(action.nargs, int):
        return " ".join(names if len(names) == action.nargs else names[:1] * action.nargs)
    return one


def default_text(action):
    """The default value as typed on the command line; '' when there is nothing to show."""
    default = action.default
    if action.nargs == 0 or default in (None, argparse.SUPPRESS, [], ()):
        return ""
    return " ".join(map(str, default)) if isinstance(default, (list, tuple)) else str(default)


def help_text(action, prog):
    """The help string with argparse's ``%(default)s``-style fields filled in."""
    params = {key: value for key, value in vars(action).items() if value is not argparse.SUPPRESS}
    params["prog"] = prog
    if params.get("choices") is not None:
        params["choices"] = ", ".join(map(str, params["choices"]))
    return (action.help or "") % params


def option_text(action):
    return ", ".join(action.option_strings) or _metavar(action)


# ----------------------------------------------------------------------------- docutils nodes

def _table(header, rows, classes):
    """A table of paragraphs; docs/_static/sfmlearn.css sizes its columns by their content."""
    table = nodes.table(classes=[*classes, "colwidths-auto"])
    group = nodes.tgroup(cols=len(header))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _cell in header)
    head, body = nodes.thead(), nodes.tbody()
    group += head
    group += body
    for target, cells in ((head, header), *((body, row) for row in rows)):
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += cell if isinstance(cell, nodes.paragraph) else nodes.paragraph(text=cell)
            row += entry
        target += row
    return table


def _code(text):
    paragraph = nodes.paragraph()
    if text:
        paragraph += nodes.literal(text=text)
    return paragraph


def _paragraphs(text):
    """Description or epilog text: prose paragraphs, runs of indented lines as literal blocks."""
    result = []
    for block in filter(str.strip, text.split("\n\n")):
        for indented, run in itertools.groupby(block.splitlines(), key=lambda line: line[:1].isspace()):
            lines = list(run)
            if not indented:
                result.append(nodes.paragraph(text=" ".join(line.strip() for line in lines)))
                continue
            indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
            result.append(nodes.literal_block(text="\n".join(line[indent:] for line in lines),
                                              language="text", classes=["sfm-cli-wrap"]))
    return result


def _examples(epilog):
    """``Examples:`` command lines as one console block; any other epilog as text."""
    if not epilog:
        return []
    if not epilog.startswith("Examples:"):
        return _paragraphs(epilog)
    commands = [line.strip() for line in epilog[len("Examples:"):].splitlines() if line.strip()]
    section = nodes.section(ids=["examples"])
    section += nodes.title(text="Examples")
    section += nodes.literal_block(text="\n".join(f"$ {line}" for line in commands), language="console",
                                    classes=["sfm-cli-wrap"])
    return [section]


def _usage(parser):
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = USAGE_COLUMNS
    try:
        usage = parser.format_usage().strip()
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return nodes.literal_block(text=usage, language="text", classes=["sfm-cli-wrap"])


def _as_typed(node):
    """Keep ``--option`` and "quotes" as the terminal shows them (no en dashes, no curly quotes)."""
    node["support_smartquotes"] = False
    return node


def command_nodes(parser):
    """The body of one command's page."""
    result = [*_paragraphs(parser.description or ""), _usage(parser)]
    for title, actions in _argument_groups(parser):
        section = nodes.section(ids=[nodes.make_id(f"options {title}")])
        section += nodes.title(text=title[:1].upper() + title[1:])
        rows = [(_code(option_text(action)), _code(argument_text(action)), _code(default_text(action)),
                 help_text(action, parser.prog)) for action in actions]
        section += _table(("option", "argument", "default", "help"), rows, ["sfm-cli-options"])
        result.append(section)
    return [_as_typed(node) for node in result + _examples(parser.epilog)]


class CommandReference(SphinxDirective):
    """``.. sfmlearn-command:: NAME`` -- the reference of ``sfmlearn NAME``."""

    required_arguments = 1

    def run(self):
        _note_cli_sources(self.env)
        name = self.arguments[0]
        commands = _commands()
        if name not in commands:
            raise self.error(f"sfmlearn has no command {name!r} (commands: {', '.join(commands)})")
        return command_nodes(commands[name][0])


class CommandIndex(SphinxDirective):
    """``.. sfmlearn-cli::`` -- every command with its one-line help, and their toctree."""

    def run(self):
        _note_cli_sources(self.env)
        commands = _commands()
        rows = []
        for name, (_sub, one_line) in commands.items():
            link = nodes.paragraph()
            link += addnodes.pending_xref("", nodes.literal(text=f"sfmlearn {name}"), refdomain="std",
                                         reftype="doc", reftarget=f"/{PAGES}/{name}", refexplicit=True,
                                         refwarn=True)
            rows.append((link, one_line))
        table = _as_typed(_table(("command", "what it does"), rows, ["sfm-cli-commands"]))
        toctree = "\n".join([".. toctree::", "   :hidden:", ""] + [f"   {PAGES}/{name}" for name in commands])
        return [table, *self.parse_text_to_nodes(toctree)]


def _note_cli_sources(env):
    """Re-read the page when a command module changes (the directive's text does not)."""
    import sfmlearn.cli

    for path in sorted(Path(sfmlearn.cli.__file__).parent.glob("*.py")):
        env.note_dependency(str(path))


def page_text(name):
    title = f"sfmlearn {name}"
    return f".. _cli-{name}:\n\n{title}\n{'=' * len(title)}\n\n.. sfmlearn-command:: {name}\n"


def write_pages(app):
    """Write docs/cli/NAME.rst for every command; drop the pages of removed commands."""
    folder = Path(app.srcdir) / PAGES
    folder.mkdir(exist_ok=True)
    names = list(_commands())
    for name in names:
        page = folder / f"{name}.rst"
        text = page_text(name)
        if not page.is_file() or page.read_text(encoding="utf-8") != text:
            page.write_text(text, encoding="utf-8")
    for page in folder.glob("*.rst"):
        if page.stem not in names:
            page.unlink()


def setup(app):
    app.add_directive("sfmlearn-cli", CommandIndex)
    app.add_directive("sfmlearn-command", CommandReference)
    app.connect("builder-inited", write_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
