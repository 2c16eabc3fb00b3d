"""The two aims of the peer table, read off its rows (``bench_peers.py``'s table or CSV).

* **Peer aim**: the automatic choice (``SupportFeatureMachineCV()``) within 2 points of
  balanced accuracy of the best peer, with at most a fifth of that peer's features. The
  peers are the methods from outside sfmlearn; of peers equally accurate, the one with
  fewer features is the best (the stricter cap).
* **Plain-SFM aim**: the automatic choice never more than 1 point below the better of
  the plain hard SFM and the soft SFM at C = 1.

A table holds one draw of the outer folds per ``outer_seed``. Sets with a fixed split
(leukemia, ARCENE, Haxby) are the same in every draw, so each draw's verdict counts
them with the draw's own rows where they ran and with their only draw otherwise. Over
several draws the aim is also read on the means: the default's mean accuracy against
the mean of each draw's best peer, and its mean features against the mean cap.
"""

import pandas as pd

__all__ = ["DEFAULT", "PEERS", "PLAIN", "as_frame", "peer_verdicts", "plain_verdicts", "read_tables", "report"]

DEFAULT = "SFM-CV (automatic)"
PLAIN = ("SFM hard", "SFM soft C=1 balanced")
#: Methods from outside sfmlearn (Weston's zero-norm SVM is one of the papers' methods).
PEERS = ("L1 logistic CV", "L1 linear SVM CV", "elastic-net logistic CV", "linear SVM, all features",
         "abess logistic (CV)")
#: Points below the best peer the default may lie, and the share of its features it may use.
PEER_POINTS, FEATURE_SHARE = 2.0, 0.2
#: Points below the better plain SFM the default may lie.
PLAIN_POINTS = 1.0


def _draws(rows):
    """``rows`` with an ``outer_seed`` column (0 where a table has none) and accuracy in %."""
    rows = rows.copy()
    if "outer_seed" not in rows:
        rows["outer_seed"] = 0
    rows["accuracy"] = 100.0 * rows["bal_acc"]
    return rows


def _verdicts(rows, one_draw):
    """One row per draw and set: ``one_draw`` of the set's rows of that draw, or of its
    only draw when the set was run once (fixed splits; ``own_draw`` False); sets run in
    several draws but not this one are left out of it, and so are sets ``one_draw``
    cannot judge (None). None when no set can be judged."""
    rows = _draws(rows)
    out = []
    for seed in sorted(rows["outer_seed"].unique()):
        for data, of_set in rows.groupby("data", sort=False):
            seeds = of_set["outer_seed"].unique()
            own = seed in seeds
            if not own and seeds.size > 1:
                continue
            cell = one_draw(of_set[of_set["outer_seed"] == seed] if own else of_set)
            if cell is not None:
                out.append({"outer_seed": seed, "data": data, "own_draw": own, **cell})
    return pd.DataFrame(out) if out else None


def _best_peer(of_draw):
    peers = of_draw[of_draw["method"].isin(PEERS) & of_draw["accuracy"].notna()]
    if peers.empty:
        return None
    top = peers["accuracy"].max()
    return peers[peers["accuracy"] >= top - 1e-9].sort_values("n_features").iloc[0]


def _cell(of_draw, method):
    found = of_draw[(of_draw["method"] == method) & of_draw["accuracy"].notna()]
    return None if found.empty else found.iloc[0]


def _peer_cell(of_draw):
    best, default = _best_peer(of_draw), _cell(of_draw, DEFAULT)
    if best is None or default is None:
        return None
    floor, cap = best["accuracy"] - PEER_POINTS, FEATURE_SHARE * best["n_features"]
    return {"best_peer": best["method"], "peer_accuracy": best["accuracy"],
            "peer_features": best["n_features"], "floor": floor, "cap": cap,
            "accuracy": default["accuracy"], "n_features": default["n_features"],
            "met": bool(default["accuracy"] >= floor - 1e-9 and default["n_features"] <= cap + 1e-9)}


def _plain_cell(of_draw):
    default = _cell(of_draw, DEFAULT)
    plain = [cell for cell in (_cell(of_draw, name) for name in PLAIN) if cell is not None]
    if default is None or not plain:
        return None
    better = max(plain, key=lambda cell: cell["accuracy"])
    return {"better_plain": better["method"], "plain_accuracy": better["accuracy"],
            "accuracy": default["accuracy"],
            "met": bool(default["accuracy"] >= better["accuracy"] - PLAIN_POINTS - 1e-9)}


def peer_verdicts(rows):
    """One row per draw and set: the best peer, the aim (accuracy at least, features at
    most), the default's cell and whether it meets the aim; None when the table lacks the
    default or every peer."""
    return _verdicts(rows, _peer_cell)


def plain_verdicts(rows):
    """One row per draw and set: the better plain SFM, the default and whether it lies at
    most 1 point below; None when the table lacks the default or both plain SFMs."""
    return _verdicts(rows, _plain_cell)


def _mean_reading(peer):
    """Per set over its own draws: mean default accuracy and features against the mean
    best peer's accuracy less the points and the mean cap."""
    means = peer[peer["own_draw"]].groupby("data", sort=False).agg(
        draws=("outer_seed", "size"), accuracy=("accuracy", "mean"), n_features=("n_features", "mean"),
        peer_accuracy=("peer_accuracy", "mean"), cap=("cap", "mean"))
    means["floor"] = means["peer_accuracy"] - PEER_POINTS
    means["met"] = (means["accuracy"] >= means["floor"] - 1e-9) & (means["n_features"] <= means["cap"] + 1e-9)
    return means


def report(rows):
    """The verdicts of both aims as text lines (per draw, and over the draws' means when
    the table holds more than one)."""
    lines = []
    peer, plain = peer_verdicts(rows), plain_verdicts(rows)
    if peer is None:
        lines.append(f"peer aim: not judged (the table needs {DEFAULT!r} and at least one peer)")
    else:
        lines.append(f"peer aim: {DEFAULT} within {PEER_POINTS:g} points of the best peer with at most "
                     f"{FEATURE_SHARE:.0%} of its features")
        for _, v in peer.iterrows():
            lines.append(f"  draw {v.outer_seed}  {v.data:18s} best peer {v.best_peer:24s} "
                         f"{v.peer_accuracy:5.1f} % · {v.peer_features:7.1f}   aim >= {v.floor:5.1f} %, "
                         f"<= {v.cap:6.1f}   default {v.accuracy:5.1f} % · {v.n_features:6.1f}   "
                         f"{'met' if v.met else 'missed'}")
        for seed, of_draw in peer.groupby("outer_seed"):
            lines.append(f"  draw {seed}: met on {int(of_draw.met.sum())} of {len(of_draw)} sets")
        if peer["outer_seed"].nunique() > 1:
            means = _mean_reading(peer)
            lines.append("  over the draws' means:")
            for data, m in means.iterrows():
                lines.append(f"    {data:18s} {int(m.draws)} draw{'s' if m.draws != 1 else ' '}  default {m.accuracy:5.1f} % · "
                             f"{m.n_features:6.1f}   aim >= {m.floor:5.1f} %, <= {m.cap:6.1f}   "
                             f"{'met' if m.met else 'missed'}")
            lines.append(f"    met on {int(means.met.sum())} of {len(means)} sets")
    if plain is None:
        lines.append(f"plain-SFM aim: not judged (the table needs {DEFAULT!r} and a plain SFM)")
    else:
        lines.append(f"plain-SFM aim: {DEFAULT} at most {PLAIN_POINTS:g} point below the better of "
                     f"{' and '.join(PLAIN)}")
        for seed, of_draw in plain.groupby("outer_seed"):
            missed = of_draw[~of_draw.met]
            detail = "; ".join(f"{v.data} {v.accuracy:.1f} against {v.better_plain} {v.plain_accuracy:.1f}"
                               for _, v in missed.iterrows())
            lines.append(f"  draw {seed}: met on {int(of_draw.met.sum())} of {len(of_draw)} sets"
                         + (f" (missed: {detail})" if detail else ""))
    return lines


def as_frame(rows):
    """``rows`` (dicts or a DataFrame) as the DataFrame the verdicts read; a table
    without the columns they need is refused."""
    frame = pd.DataFrame(rows)
    missing = {"data", "method", "bal_acc", "n_features"} - set(frame.columns)
    if missing:
        raise ValueError(f"the table lacks the columns {sorted(missing)}")
    return frame.astype({"bal_acc": float, "n_features": float})


def read_tables(paths):
    """The rows of CSV tables written by ``bench_peers.py --out`` (one or several draws)."""
    return as_frame(pd.concat([pd.read_csv(path) for path in paths], ignore_index=True))
