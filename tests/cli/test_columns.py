"""print_columns: the command line's aligned tables."""

from sfmlearn.cli._common import print_columns


def test_wide_characters_line_up_by_display_width(capsys):
    print_columns([["type", "cells"], ["细胞", "10"], ["ñ😀", "3"], ["B cell", "100"]], right={1})
    lines = capsys.readouterr().out.splitlines()
    # every count ends in the same terminal column: CJK and emoji characters take two
    ends = {sum(2 if ord(c) > 0x2E7F else 1 for c in line) for line in lines}
    assert len(ends) == 1
    assert lines[1] == "    细胞       10"
