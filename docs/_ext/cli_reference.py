"""``.. sfmlearn-cli::`` -- the command-line reference, generated from the parser itself.

Every subcommand registered in :func:`sfmlearn.cli.build_parser` gets a section with its
``--help`` text, so a new command (or option) appears in the docs without editing them.
"""

import argparse
import os

from docutils import nodes
from sphinx.util.docutils import SphinxDirective


def _subcommands(parser):
    for action in parser._actions:  # argparse keeps its subparsers here, no public accessor
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _help(parser):
    os.environ["COLUMNS"] = "88"  # argparse wraps at $COLUMNS; fixed so the page is stable
    return parser.format_help()


class CLIReference(SphinxDirective):
    """Render ``sfmlearn --help`` and every ``sfmlearn COMMAND --help``."""

    def run(self):
        from sfmlearn.cli import build_parser

        parser = build_parser()
        result = [nodes.literal_block(text=_help(parser), language="text")]
        for name, sub in _subcommands(parser).items():
            section = nodes.section(ids=[nodes.make_id(f"sfmlearn-{name}")])
            section += nodes.title(text=f"sfmlearn {name}")
            section += nodes.literal_block(text=_help(sub), language="text")
            result.append(section)
        return result


def setup(app):
    app.add_directive("sfmlearn-cli", CLIReference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
