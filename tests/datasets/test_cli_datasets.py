"""``sfmlearn datasets`` and the public catalogue of shipped datasets behind it (sfmlearn.datasets)."""

import json

import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn.cli import main
from sfmlearn.datasets import (
    CATALOG,
    DATASETS,
    dataset_description,
    dataset_parts,
    load_named,
    packaged_megabytes,
)


@pytest.fixture(scope="module")
def listing():
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["datasets", "--json"]) == 0
    return json.loads(out.getvalue())


def test_listing_names_every_catalogued_dataset_with_citation_and_terms(listing):
    names = [d["name"] for d in listing["datasets"]]
    assert names == list(CATALOG)
    for d in listing["datasets"]:
        assert d["citation"] and d["terms"] and d["python"].startswith("sfmlearn.datasets.")
        assert d["select"] == (d["name"] in DATASETS)
    assert 0 < listing["packaged_megabytes"] < 15


def test_listing_reports_the_published_shapes_and_class_counts(listing):
    by_name = {d["name"]: d["parts"] for d in listing["datasets"]}
    assert by_name["colon"]["train"]["classes"] == {"normal": 22, "tumour": 40}
    assert by_name["arcene"]["test"]["n_features"] == 10000
    assert by_name["dorothea"]["valid"] == {"n_samples": 350, "n_features": 100000,
                                            "sparse": True, "classes": {"-1": 316, "1": 34}}
    assert by_name["breast_cancer_wisconsin"]["train"]["n_samples"] == 683
    haxby = by_name["haxby"]["slice view (slice mask)"]
    assert haxby["n_features"] == 530 and haxby["classes"]["rest"] == 588


def test_terms_flag_what_is_unverified_or_share_alike(listing):
    terms = {d["name"]: d["terms"] for d in listing["datasets"]}
    assert "CC BY-SA 3.0" in terms["haxby"]
    assert "UNCLEAR" in terms["pima"]
    assert all("unverified" in terms[n] for n in ("sonar", "arcene", "cleveland"))


def test_named_dataset_shows_its_description(capsys):
    assert main(["datasets", "liver"]) == 0
    out = capsys.readouterr().out
    assert "selector" in out and "CAVEAT" in out and "345 x 6" in out


def test_public_catalogue_gives_what_the_command_prints(listing):
    assert listing["packaged_megabytes"] == round(packaged_megabytes(), 2)
    liver = dataset_description("liver")
    assert "CAVEAT" in liver and "selector" in liver
    parts = dataset_parts("colon")
    assert list(parts) == ["train"] and parts["train"][0].shape == (62, 2000)
    for lookup in (dataset_description, dataset_parts, load_named):
        with pytest.raises(ValueError, match="unknown dataset 'gisette'; available: .*leukemia"):
            lookup("gisette")


@pytest.mark.parametrize("name, reason, loader", [
    ("haxby", "multi-class", 'load_haxby("slice")'),
    ("dorothea", "only its validation split ships", 'load_nips2003("dorothea")'),
])
def test_load_named_says_why_a_catalogued_dataset_is_not_loaded_and_names_its_loader(name, reason, loader):
    with pytest.raises(ValueError) as error:
        load_named(name)
    message = str(error.value)
    assert f"'{name}' ships with sfmlearn" in message and "unknown" not in message
    assert reason in message and loader in message and f"dataset_parts('{name}')" in message


def test_unknown_name_is_a_one_line_error(capsys):
    assert main(["datasets", "gisette"]) == 2
    err = capsys.readouterr().err
    assert "unknown dataset 'gisette'" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_every_select_dataset_has_the_registry_shape(name):
    bunch = load_named(name)
    n, d = bunch.X_train.shape
    assert len(bunch.y_train) == n and len(bunch.feature_names) == d
    assert len(np.unique(np.asarray(bunch.y_train))) == 2
    assert sp.issparse(bunch.X_train) or np.isfinite(bunch.X_train).all()
    if "X_test" in bunch:
        assert bunch.X_test.shape[1] == d and len(bunch.y_test) == bunch.X_test.shape[0]


def test_select_accepts_a_shipped_dataset(capsys):
    assert main(["select", "--dataset", "wpbc60", "--C", "1", "--cv", "0", "--json",
                 "--quiet"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["n_samples"] == 110 and result["n_features"] == 32
