"""Interleaved repeats: the shared way the benchmarks time competing methods.

The machine's speed drifts within minutes (single runs of one benchmark gave 8.5x to
11.0x), so a ratio is measured as medians over rounds in which every method runs once,
the order rotating from round to round so that no method always runs first.
"""


def interleaved(calls, repeats):
    """{name: [call() of each round]} for ``calls`` ({name: zero-argument callable})."""
    names = list(calls)
    results = {name: [] for name in names}
    for round_ in range(repeats):
        shift = round_ % len(names)
        for name in names[shift:] + names[:shift]:
            results[name].append(calls[name]())
    return results
