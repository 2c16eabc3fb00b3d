"""``sfmlearn reproduce``: rerun a published table or figure and compare with the paper."""

import contextlib
import sys

from ._common import CLIError, add_overwrite_argument, at_least, check_new_dir, n_jobs, progress, seed


HELP = "reproduce a table or figure of the papers and compare with the published numbers"
DESCRIPTION = ("Run the experiment behind one published result (see --list, with the expected time of "
               "each), write its tidy table (CSV, with a 'published' column where the paper gives a "
               "number), its comparison with the paper (ID.comparison.csv) and its figure (PNG), and "
               "print ours next to the published numbers with the explanation of every gap. "
               "DIR/summary.json lists every result the folder holds, so 'sfmlearn report DIR' renders "
               "them; 'all' also writes DIR/results.md with the files under DIR/results/. A result "
               "whose experiment writes files of its own (maps, further figures) puts them into DIR/ID/. "
               "Outputs of an earlier run are replaced only with --overwrite; the folder is filled as a "
               "whole when the run is over, so a run that breaks off leaves it as it was, and a result "
               "that fails leaves none of its earlier files. On a terminal a progress line on stderr "
               "estimates the time left.")
EXAMPLES = ("sfmlearn reproduce --list",
            "sfmlearn reproduce nc-table1 --quick --out out/",
            "sfmlearn reproduce ml05-table3 --set datasets=liver,cleveland --n-jobs 2",
            "sfmlearn reproduce all --quick --out docs/ --overwrite",
            "sfmlearn report out/")


def add_arguments(p):
    p.add_argument("ids", nargs="*", metavar="ID", help="result IDs from --list, or 'all'")
    p.add_argument("--list", action="store_true", help="list the reproducible results and exit (alone)")
    p.add_argument("--quick", action="store_true",
                   help="fewer repetitions and smaller grids (about a minute per result)")
    p.add_argument("--repetitions", type=at_least(1), metavar="N", help="runs per point (overrides the default)")
    p.add_argument("--n-jobs", type=n_jobs, default=1, metavar="J",
                   help="parallel jobs where the experiment supports them (-1 = all cores)")
    p.add_argument("--random-state", type=seed, default=0, help="seed of the experiments (0 ... 2**32 - 1)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="settings",
                   help="an option of the experiment itself, e.g. --set datasets=liver,cleveland (lists "
                   "comma-separated); repeat for more. A wrong name is refused with the result's settings, "
                   "a value the experiment does not accept with what it accepts, both before anything runs")
    p.add_argument("--out", default="reproduced", metavar="DIR",
                   help="output directory (default ./reproduced; 'all' writes DIR/results.md and DIR/results/); "
                   "a folder that already holds these outputs is refused unless --overwrite")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--quiet", action="store_true", help="no progress display")
    shown.add_argument("--progress", action="store_true",
                       help="a progress line per result on stderr (with the time left) even when stderr is not a "
                       "terminal, e.g. a log file; on a terminal a live line shows it anyway")
    add_overwrite_argument(p)
    p.set_defaults(run_defaults={dest: p.get_default(dest) for _, dest in RUN_OPTIONS})


def _list():
    from ..analysis.reproduce import describe_seconds, listing

    table = listing()
    width = table["id"].str.len().max()
    for row in table.itertuples():
        quick = describe_seconds(row.quick_seconds)
        full = ("~" if row.full_estimated else "") + describe_seconds(row.full_seconds)
        print(f"{row.id:<{width}}  {quick:>7}  {full:>8}  {row.reference}: {row.title}")
    print(f"\n{len(table)} results; the times are those of one result run alone with --quick and in full, "
          "on a quiet 2-core machine (~: the full time is estimated, not measured). Run one with "
          "'sfmlearn reproduce ID [--quick]', all with 'sfmlearn reproduce all --out docs/'.")
    return 0


def _print_outcome(outcome, paths):
    import pandas as pd

    result = outcome.result
    print(f"== {result.id}: {result.title} ({result.reference})")
    for notice in outcome.notices:
        print(f"   note: {notice}")
    if outcome.error:
        print(f"   FAILED: {outcome.error}")
        print(outcome.traceback, file=sys.stderr)
        return
    with pd.option_context("display.width", 200, "display.max_rows", 60, "display.max_columns", 20,
                           "display.max_colwidth", 70):
        if outcome.comparison.empty:
            print("   no published numbers for this result; the table:")
            print(outcome.table.head(20).to_string(index=False) if not outcome.table.empty else "   (figure only)")
        else:
            shown = outcome.comparison.drop(columns="cell", errors="ignore")  # the key columns identify the row
            print(shown.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    misses = outcome.misses
    if len(misses):
        judged = int(outcome.comparison["agrees"].isin([True, False]).sum())
        print(f"   {len(misses)} of {judged} judged rows differ. Why: {result.notes}")
    if paths:
        print(f"   files (in place when the run is over): {', '.join(map(str, paths.values()))}")
    print(f"   {outcome.seconds:.1f} s")


#: The options of a run, which ``--list`` would ignore: ``(flag, dest)``.
RUN_OPTIONS = (("--quick", "quick"), ("--repetitions", "repetitions"), ("--n-jobs", "n_jobs"),
               ("--random-state", "random_state"), ("--set", "settings"), ("--out", "out"), ("--quiet", "quiet"),
               ("--progress", "progress"), ("--overwrite", "overwrite"))


def _refuse_options_with_list(args):
    """--list prints the registry and runs nothing: an option of a run beside it (a value
    other than its default, ``args.run_defaults``) is a slip."""
    given = ["ID"] * bool(args.ids) + [flag for flag, dest in RUN_OPTIONS
                                       if getattr(args, dest) != args.run_defaults[dest]]
    if given:
        raise CLIError(f"--list runs nothing, so {', '.join(given)} would be ignored; give --list alone, "
                       "or leave it out to run results")


def _results(args):
    """The results of ``args.ids`` (each once, in the order given) with their ``--set`` settings
    checked; CLIError before anything runs."""
    from ..analysis.reproduce import parse_settings, select_results

    try:
        results = select_results(args.ids)
    except (KeyError, ValueError) as exc:
        raise CLIError(exc.args[0]) from None
    for result in results:  # every setting must suit every result, before any of them runs
        try:
            parse_settings(result, args.settings)
        except ValueError as exc:
            raise CLIError(f"--set {exc}") from None
    return results


def run(args):
    if args.list:
        _refuse_options_with_list(args)
        return _list()
    if not args.ids:
        raise CLIError("give a result ID (see 'sfmlearn reproduce --list') or 'all'.")
    from ..analysis.reproduce import Context, earlier_sections, output_entries, reproduce

    results = _results(args)
    everything = "all" in args.ids  # alone: select_results refuses it beside IDs
    out = check_new_dir(args.out, what="--out", names=output_entries(results, everything))
    try:
        earlier = earlier_sections(out)
    except ValueError as exc:
        raise CLIError(exc.args[0]) from None
    context = Context(quick=args.quick, repetitions=args.repetitions, n_jobs=args.n_jobs,
                      random_state=args.random_state, settings=tuple(args.settings))
    mode = "quick mode: fewer repetitions, smaller grids" if args.quick else "full settings"
    if args.repetitions:
        mode += f", {args.repetitions} repetitions"

    shown = _Progress(results, args)

    def finished(outcome, paths):
        shown.finish()
        _print_outcome(outcome, paths)

    try:
        outcomes, total, page = reproduce(results, context, out, everything=everything, mode=mode,
                                          earlier=earlier, on_start=shown.start, on_outcome=finished)
    finally:
        shown.finish()
    if page is not None:
        print(f"wrote {page}")
    print(f"wrote {out / 'summary.json'}; 'sfmlearn report {out}' renders it as HTML")
    failed = [o.result.id for o in outcomes if o.error]
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} results in {total:.0f} s"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


class _Progress:
    """The progress of a run on stderr: a live line on a terminal (:func:`._common.progress`),
    one line per result with ``--progress`` elsewhere, nothing with ``--quiet``; each with
    the time left (:class:`~sfmlearn.analysis.reproduce.TimeLeft`)."""

    def __init__(self, results, args):
        from rich.console import Console

        from ..analysis.reproduce import TimeLeft

        self.results, self.left = results, TimeLeft(results, quick=args.quick)
        self.live = not args.quiet
        self.lines = args.progress and not (self.live and Console(stderr=True).is_terminal)
        self.bar = contextlib.ExitStack()

    def _left(self):
        from ..analysis.reproduce import describe_seconds

        seconds = self.left.seconds_left()
        if seconds is None:
            return "time left unknown"
        return "under 1 s left" if seconds < 1 else f"about {describe_seconds(seconds)} left"

    def start(self, index, result):
        self.left.start(index - 1)
        what = f"[{index}/{len(self.results)}] {result.id}"
        if self.lines:
            print(f"{what}: {self._left()}", file=sys.stderr, flush=True)
        self.bar.enter_context(progress(what, enabled=self.live, status=self._left))

    def finish(self):
        """The current result is over (also called once more when the run ends or breaks off)."""
        if self.left.current is not None:
            self.left.finish()
        self.bar.close()
