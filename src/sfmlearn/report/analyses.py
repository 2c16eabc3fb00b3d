"""Reports of ``sfmlearn select`` and ``sfmlearn repeat`` from their JSON-shaped results.

Both functions take the result of the analysis (:class:`~sfmlearn.analysis.SelectResult`,
:class:`~sfmlearn.analysis.RepeatResult`) or the dictionary the command prints with
``--json`` (so a saved JSON file can be turned into a report later) and return a
:class:`~sfmlearn.report.html.Report`; the repeat report draws the figure of the
estimate (NC 2013, Fig. 4) from the result's
:class:`~sfmlearn.selection.repetitive.InformativeFraction` (or one passed alongside a
dictionary).
"""

import numpy as np
import pandas as pd

from ..io.labelled import short_name
from ..plotting.repetitive import informative_fraction_figure
from ..plotting.softness import chosen_fit, inner_scheme
from .figures import permutation_sizes_figure, subset_sizes_figure, weights_figure
from .html import Report

__all__ = ["add_class_tables", "as_json", "percent", "select_report", "repeat_report"]


def as_json(result):
    """The JSON form of an analysis' result (``result.to_dict()``); a dictionary as it is."""
    return result.to_dict() if hasattr(result, "to_dict") else result


def _kind(result):
    if "stability" in result:
        balanced = ", balanced class weights" if result.get("class_weight") else ""
        return result["stability"]["kind"] + balanced
    if result.get("C") is None and "C_auto" in result:
        return f"{chosen_fit(result['C_auto'])}, chosen by cross-validation"
    if result.get("C") is None and result.get("weakly_separated"):
        return ("hard (zero margin), weakly separated: its selected features leave some training samples on its "
                "hyperplane, although more features separate them (a soft C or Weston's zero-norm SVM avoids it)")
    if result.get("C") is None:
        return "hard (no training errors allowed)"
    balanced = ", balanced class weights" if result.get("class_weight") else ""
    return f"soft, C = {result['C']:g}{balanced}"


def _data_section(report, result):
    section = report.section("Data", anchor="data")
    facts = {"source": result["data"], "samples (n)": result["n_samples"],
             "features (d)": result["n_features"], "classes": " / ".join(result["classes"])}
    counts = result.get("class_counts")
    if counts:
        facts["samples per class"] = ", ".join(f"{c}: {k}" for c, k in counts.items())
    if "n_test" in result:
        facts["independent test samples"] = result["n_test"]
    section.add_facts(facts)
    return section


SCALED = ("scaled", "Weights refer to the scaled features (standardised, mean sample norm 1), so their "
          "sizes are comparable")
STANDARDISED = ("standardised", "Weights of logistic regression on the stable features, each standardised "
                "(mean 0, standard deviation 1), so their sizes are comparable")
AS_GIVEN = ("input", "Weights refer to the features as given (not scaled), so their sizes depend on the "
            "features' units")
INPUT = ("input", "Weights are in input space (the classifier is x·w + b on the data as given), so "
         "their sizes depend on the features' units")


def _names(names):
    """Feature names for a table cell, each cut when long (:func:`~sfmlearn.io.labelled.short_name`)."""
    return ", ".join(map(short_name, names))


def _feature_table(rows, columns):
    """``rows`` (dicts) as a table of ``columns``, with each feature's annotations (a ``Gene
    Symbol`` column, AnnData var columns, gene descriptions) right after its name (cut when
    long, :func:`~sfmlearn.io.labelled.short_name`: the column index names the feature)."""
    table = pd.DataFrame(rows)[columns]
    table["name"] = table["name"].map(short_name)
    annotations = pd.DataFrame([r.get("annotations", {}) for r in rows], index=table.index)
    at = columns.index("name") + 1
    table = pd.concat([table.iloc[:, :at], annotations.fillna(""), table.iloc[:, at:]], axis=1)
    return table.rename(columns={"name": "feature", "index": "column (from 0)"})


def _selected_section(report, title, rows, classes, space, order):
    """Table and bar plot of selected features; ``rows`` are dicts with name, index, weight."""
    section = report.section(title, anchor="features")
    if not rows:
        section.add_text("No feature was selected.", note=True)
        return section
    kind, explanation = space
    section.add_text(f"{len(rows)} feature{'s' if len(rows) != 1 else ''}, {order}. {explanation}; "
                     f"a positive weight favours {classes[1]}.")
    columns = ["name", "index", "weight"] + (["frequency"] if "frequency" in rows[0] else [])
    section.add_table(_feature_table(rows, columns), max_rows=200)
    section.add_figure(weights_figure([r["name"] for r in rows], [r["weight"] for r in rows], classes,
                                      space=kind),
                       caption="Weights of the selected features.")
    return section


def _chance_section(report, chance):
    section = report.section("Could it be chance?", anchor="chance")
    if chance is None:
        section.add_text("No chance check was run.", note=True)
        return section
    section.add_text(chance["verdict"])
    facts = {"subset size": chance["subset_size"],
             "training errors": chance["training_errors"],
             "subset separates the training classes": chance["separates_training_data"],
             "P(random data of this shape separable in that many features) <=":
                 chance["probability_upper"] if chance["separates_training_data"]
                 else "does not apply (the subset does not separate the classes)"}
    if chance["n_permutations"]:
        facts["label permutations"] = f"{chance['n_permutations']}" + (" (within groups)" if chance["grouped"] else "")
        facts["permutation p-value"] = chance["p_value"]
    else:
        section.add_text("Only the bound for random data (thesis eq. 2.3) was computed; for the label "
                         "permutation test run sfmlearn select ... --chance N (e.g. 100).", note=True)
    section.add_facts(facts)
    if chance["n_permutations"]:
        section.add_figure(permutation_sizes_figure(chance["permutation_sizes"], chance["subset_size"]),
                           caption="Subset sizes the selector finds when the labels are permuted "
                                   "(a real effect needs fewer features than most permutations).")
    return section


def _cv_facts(cv, what):
    grouped = "grouped " if cv["grouped"] else ""
    return {f"{cv['folds']}-fold {grouped}CV accuracy ({what})":
            f"{100 * cv['accuracy_mean']:.1f} % ± {100 * cv['accuracy_std']:.1f} %",
            "features selected per fold": ", ".join(str(int(s)) for s in cv["n_selected"])}


def _cv_table(cv):
    table = pd.DataFrame({"fold": np.arange(1, cv["folds"] + 1),
                          "test accuracy [%]": 100 * np.asarray(cv["accuracy"], dtype=float),
                          "features selected": np.asarray(cv["n_selected"], dtype=int)})
    if "selected_per_fold" in cv:
        table["selected by the fold's refit"] = [_names(names) for names in cv["selected_per_fold"]]
    return table


def _values_text(values):
    return ", ".join(f"{v:.4g}" for v in values)


#: Identical columns named in a stability section; a larger group is counted.
SHOWN_COPIES = 10


def _stability_section(report, stability):
    """The threshold, the bound and the most frequent features of a ``select --stability`` result."""
    section = report.section("Stability selection", anchor="stability")
    pi, bound = stability["threshold"], stability["false_selection_bound"]
    section.add_text(f"The soft path of {stability['path_estimator']} was fitted on {stability['n_halves']} halves "
                     "of the samples (complementary pairs); a feature is selected when the path selects it, at some "
                     "C, on at least a fraction pi of the halves (Meinshausen & Buehlmann 2010; Shah & Samworth "
                     "2013).")
    if "constant_prediction" in stability:
        section.add_text("No feature reaches the threshold: the classifier predicts "
                         f"{stability['constant_prediction']} for every sample.", note=True)
    section.add_facts({"threshold pi": f"{pi:g}",
                       "features selected per half, q": f"{stability['mean_union_size']:.2f}",
                       "non-constant features, p": stability["n_candidate_features"],
                       "expected false selections <= q^2 / ((2 pi - 1) p)":
                           f"{bound:.3g}" if bound is not None else "no bound (pi <= 0.5)"})
    if stability["most_frequent"]:
        section.add_table(_feature_table(stability["most_frequent"], ["name", "index", "frequency"]),
                          caption="The features of largest selection frequency (the largest over C)")
    for group in stability.get("identical_columns", []):
        named = ", ".join(f"{short_name(row['name'])} ({row['frequency']:.2f})" for row in group[:SHOWN_COPIES])
        more = f" and {len(group) - SHOWN_COPIES} more" if len(group) > SHOWN_COPIES else ""
        section.add_text(f"{len(group)} identical columns: {named}{more} (frequency in brackets). Each half's fit "
                         "takes one copy or another, so their frequency is split between them; drop all but one to "
                         "see it.", note=True)
    return section


def _choice_section(report, summary):
    """The cross-validated choice of C of a ``select --C auto`` result: one row per distinct
    selection of the full-data path (the CV table's rows that select the same features)."""
    section = report.section("Choice of C", anchor="choice")
    by_budget = summary["align"] == "n_features"
    facts = {"rule": summary["select"], "scoring": summary["scoring"], "chosen fit": chosen_fit(summary),
             "inner folds": inner_scheme(summary)}
    if by_budget:
        facts["chosen budget (most features)"] = summary["budget"]
    section.add_facts(facts)
    section.add_text("The selection score is the inner cross-validation's, by which the choice was made: it is "
                     "optimistic; the accuracy below re-chooses C in every outer fold. Rows of the inner table "
                     "whose full-data fits select the same features are one row.")
    rows = []
    for row in summary.get("selections", []):
        where = ({"budgets (at most k features)": _values_text(row["max_features"])} if by_budget
                 else {"C": _values_text(row["C"]),
                       "features per fold": _values_text([round(k, 1) for k in row["mean_features"]])})
        rows.append({**where, "selection score [%]": _values_text([100 * v for v in row["mean_score"]]),
                     "SE [%]": _values_text([100 * v for v in row["se_score"]]),
                     "features selected on all data": row["n_selected"], "features": _names(row["features"]),
                     "chosen": "chosen" if row["chosen"] else ""})
    if rows:
        section.add_table(pd.DataFrame(rows), max_rows=200,
                          caption="One row per distinct selection of the full-data fits (the path, and the "
                                  "repetitive-SFM unions beyond it)")


def _start(title, result, subtitle, selector, facts):
    """A report with its Data and Method sections: the selector, its kind, ``facts``, fit time."""
    report = Report(title, subtitle=subtitle)
    _data_section(report, result)
    report.section("Method", anchor="method").add_facts(
        {selector: result["method"], "kind": _kind(result), **facts,
         "fit time": f"{result['fit_seconds']:.2f} s"})
    return report


def select_report(result, *, subtitle=None):
    """The report of one ``sfmlearn select`` run.

    Parameters
    ----------
    result : SelectResult or dict
        A :class:`~sfmlearn.analysis.SelectResult`, or its JSON as printed by
        ``sfmlearn select --json``: data summary, ``selected`` features with weights,
        training accuracy, optional ``cv``, ``chance`` and test accuracy.
    subtitle : str, optional
        Shown under the title, e.g. the command line.

    Returns
    -------
    Report
        Sections Data, Method, Selected features, Choice of C (with ``C_auto``),
        Stability selection (with ``stability``), Accuracy and Chance; not written yet
        (:meth:`Report.write`).

    Examples
    --------
    A result as ``sfmlearn select --json`` prints it (here written by hand, without
    cross-validation and chance check):

    >>> from sfmlearn.report import select_report
    >>> result = {
    ...     "data": "toy.csv", "n_samples": 20, "n_features": 50, "classes": ["a", "b"],
    ...     "class_counts": {"a": 8, "b": 12}, "method": "SupportFeatureMachine", "C": None,
    ...     "class_weight": None, "n_selected": 2, "train_accuracy": 1.0, "fit_seconds": 0.1,
    ...     "selected": [{"index": 7, "name": "gene_7", "weight": -2.5},
    ...                  {"index": 3, "name": "gene_3", "weight": 1.25}]}
    >>> report = select_report(result, subtitle="sfmlearn select toy.csv --target class")
    >>> [section.anchor for section in report.sections]
    ['data', 'method', 'features', 'accuracy', 'chance']
    >>> "gene_7" in report.to_html()
    True
    """
    result = as_json(result)
    report = _start(f"Feature selection: {result['data']}", result, subtitle, "selector",
                    {"features selected": f"{result['n_selected']} of {result['n_features']}"})
    space = STANDARDISED if "stability" in result else AS_GIVEN if result.get("scaled") is False else SCALED
    _selected_section(report, "Selected features and weights", result["selected"], result["classes"], space,
                      "largest |weight| first")
    if "C_auto" in result:
        _choice_section(report, result["C_auto"])
    if "stability" in result:
        _stability_section(report, result["stability"])
    accuracy = report.section("Accuracy", anchor="accuracy")
    facts = {"training accuracy": f"{100 * result['train_accuracy']:.1f} %"}
    if "cv" in result:
        facts.update(_cv_facts(result["cv"], "features re-selected in every fold"))
    if "test_accuracy" in result:
        facts[f"test accuracy ({result['n_test']} independent samples)"] = f"{100 * result['test_accuracy']:.1f} %"
    accuracy.add_facts(facts)
    for unstable in result.get("unstable_features", []):
        accuracy.add_text(f"Unstable: feature {short_name(unstable['name'])} was selected in "
                          f"{unstable['folds_selected']} of {unstable['folds']} outer folds (the refits of the cross-validated estimate).",
                          note=True)
    if "cv" in result:
        accuracy.add_text("In cross-validation the selector is refitted on every training fold, "
                          "so the estimate is not biased by having selected the features on all samples.")
        accuracy.add_table(_cv_table(result["cv"]), caption="Cross-validation folds")
    else:
        accuracy.add_text("Cross-validation was skipped (--cv 0); the training accuracy alone "
                          "says little in high dimensions.", note=True)
    if "test_confusion_matrix" in result:
        _test_split_tables(accuracy, result)
    _chance_section(report, result.get("chance"))
    return report


def percent(value):
    """A fraction as a percentage with one decimal ("-" for None)."""
    return "-" if value is None else f"{100 * value:.1f} %"


def add_class_tables(section, classes, confusion, per_class, *, names, held_out):
    """The held-out scores of every class in ``section``: the confusion matrix (rows: true
    class, columns: predicted), then sensitivity and specificity (one class against the rest).

    Parameters
    ----------
    section : Section
        Where the two tables go.
    classes : sequence of str
        The classes, in the order of the confusion matrix.
    confusion : list of list of int
        ``confusion[i][j]``: held-out samples of class i predicted as class j.
    per_class : sequence of tuple
        ``(class, held-out samples, sensitivity, specificity)`` per class (fractions or None).
    names : tuple of str
        What a class and its samples are called, e.g. ``("class", "samples")`` or
        ``("cell type", "test cells")``.
    held_out : str
        What the held-out samples are called in the captions ("test set", "test cells").

    Returns
    -------
    Section
    """
    kind, samples = names
    section.add_table(pd.DataFrame(confusion, columns=[f"predicted {c}" for c in classes],
                                   index=pd.Index(classes, name=f"true {kind}")).reset_index(),
                      caption=f"Confusion matrix of the {held_out}")
    section.add_table(pd.DataFrame([(name, n, percent(sensitivity), percent(specificity))
                                    for name, n, sensitivity, specificity in per_class],
                                   columns=[kind, samples, "sensitivity", "specificity"]),
                      caption=f"{held_out[:1].upper()}{held_out[1:]} per {kind}, one against the rest")
    return section


def _test_split_tables(section, result):
    """The independent test split in the accuracy ``section``: class counts, confusion matrix,
    sensitivity and specificity, the misclassified samples."""
    section.add_text(f"Independent test set ({result['n_test']} samples, never seen by the selection):")
    facts = {"test samples per class": ", ".join(f"{c}: {k}" for c, k in result["test_class_counts"].items())}
    if "test_positive_class" in result:
        facts["positive class (the second of the sorted classes)"] = result["test_positive_class"]
        facts["test sensitivity"] = percent(result["test_sensitivity"])
        facts["test specificity"] = percent(result["test_specificity"])
    section.add_facts(facts)
    add_class_tables(section, result["classes"], result["test_confusion_matrix"],
                     [(row["class"], row["n"], row["sensitivity"], row["specificity"])
                      for row in result["test_per_class"]],
                     names=("class", "samples"), held_out="test set")
    wrong = result["test_misclassified"]
    if wrong:
        section.add_table(pd.DataFrame(wrong).rename(columns={"id": "sample", "class": "true class"}),
                          caption=f"Misclassified test samples ({len(wrong)} of {result['n_test']})", max_rows=200)
    else:
        section.add_text("No test sample was misclassified.")


def repeat_report(result, estimate=None, *, subtitle=None):
    """The report of one ``sfmlearn repeat`` run (repetitive SFM, NC 2013 4.4).

    Parameters
    ----------
    result : RepeatResult or dict
        A :class:`~sfmlearn.analysis.RepeatResult`, or its JSON as printed by
        ``sfmlearn repeat --json`` (subsets, ranking, optional ``estimate``), plus
        optionally ``cv`` and ``chance`` of the base selector.
    estimate : InformativeFraction, optional
        The informative-fraction estimate (default: the result's ``informative``), for its
        figure (subset sizes per fold, SVM error curve, sigmoid fit, tangent); without it
        the numbers alone are shown.
    subtitle : str, optional
        Shown under the title, e.g. the command line.

    Returns
    -------
    Report
        Sections Data, Method, the first subset, the subsets and ranking, accuracy,
        chance and the informative fraction; not written yet (:meth:`Report.write`).

    Examples
    --------
    A result as ``sfmlearn repeat --json`` prints it (here written by hand: two
    repetitions, no estimate):

    >>> from sfmlearn.report import repeat_report
    >>> ranking = [{"rank": 1, "index": 4, "name": "v4", "repetition": 1, "weight": 0.5},
    ...            {"rank": 2, "index": 9, "name": "v9", "repetition": 1, "weight": -1.5},
    ...            {"rank": 3, "index": 1, "name": "v1", "repetition": 2, "weight": 2.0}]
    >>> result = {"data": "d.csv", "n_samples": 12, "n_features": 30, "classes": ["l", "r"],
    ...           "method": "SupportFeatureMachine", "C": None, "class_weight": None,
    ...           "n_repetitions": 2, "stop_reason": "not_separable", "n_ranked": 3,
    ...           "fit_seconds": 0.2, "subsets": [["v4", "v9"], ["v1"]], "ranking": ranking}
    >>> report = repeat_report(result)
    >>> [section.anchor for section in report.sections]
    ['data', 'method', 'features', 'rsfm', 'accuracy', 'chance', 'informative']
    """
    estimate = getattr(result, "informative", None) if estimate is None else estimate
    result = as_json(result)
    report = _start(f"Repetitive SFM: {result['data']}", result, subtitle, "base selector",
                    {"repetitions": result["n_repetitions"],
                     "stopped because": result.get("stopped_because", result["stop_reason"]),
                     "features ranked": f"{result['n_ranked']} of {result['n_features']}"})
    first = [r for r in result["ranking"] if r["repetition"] == 1]
    _selected_section(report, "First subset (the plain SFM) and its weights", first, result["classes"],
                      INPUT, "in the order of the ranking (largest |weight on the scaled features| first)")

    curves = report.section("Repetitive SFM: subsets and ranking", anchor="rsfm")
    if result["subsets"]:
        curves.add_figure(subset_sizes_figure(result["subsets"], result["n_features"]),
                          caption="Each repetition removes the features it selected and refits on the rest.")
        curves.add_table(_feature_table(result["ranking"], ["rank", "name", "index", "repetition", "weight"]),
                         caption="Ranking: features of smaller subsets first", max_rows=300)
    else:
        curves.add_text("The repetitive SFM found no subset.", note=True)

    accuracy = report.section("Cross-validated accuracy", anchor="accuracy")
    if "cv" in result:
        accuracy.add_text("Computed for this report: cross-validation of the base selector (the first "
                          "repetition), refitted on every training fold. It is not part of the "
                          "repetitive SFM's output.")
        accuracy.add_facts(_cv_facts(result["cv"], "base selector"))
        accuracy.add_table(_cv_table(result["cv"]), caption="Cross-validation folds")
    if estimate is not None and estimate.curve.size:
        accuracy.add_text(f"Soft SVM on all features, in the estimate's cross-validation: balanced "
                          f"accuracy {100 * (1 - estimate.curve[0]):.1f} % ({estimate.aggregate} of "
                          f"{len(estimate.folds)} folds).")
    if "cv" not in result and estimate is None:
        accuracy.add_text("No cross-validated accuracy was computed.", note=True)
    _chance_section(report, result.get("chance"))
    _estimate_section(report, result.get("estimate"), estimate)
    return report


def _estimate_section(report, described, estimate):
    section = report.section("Informative fraction", anchor="informative")
    if described is None:
        section.add_text("Not estimated (--no-estimate).", note=True)
        return section
    scheme = "leave-one-group-out" if described["grouped"] else f"{described['folds']}-fold"
    section.add_text(f"In {scheme} cross-validation the repetitive SFM runs on every training fold; "
                     f"every {described['every']} repetitions a soft SVM is trained on the "
                     "remaining features and tested. A sigmoid is fitted to the test error against "
                     "the fraction of discarded features; where the tangent at its inflexion meets "
                     "chance is the estimate of the informative fraction (NC 2013, 4.4).")
    if described["available"]:
        extrapolated = " (extrapolated beyond the evaluated curve)" if described["extrapolated"] else ""
        section.add_facts({"informative fraction": f"{100 * described['fraction']:.1f} %{extrapolated}",
                           "informative features (approx.)": round(described["n_informative"]),
                           "sigmoid fit used": described["fit"],
                           "repetitions per fold": described["fold_repetitions"]})
        if described["reason"]:
            section.add_text(described["reason"], note=True)
    else:
        section.add_text(f"No estimate: {described['reason']}", note=True)
    if estimate is not None:
        section.add_figure(informative_fraction_figure(estimate),
                           caption="Left: subset sizes per fold, sorted. Right: test error of the SVM on "
                                   "the remaining features, the sigmoid fits, and the tangent at the inflexion.")
    return section
