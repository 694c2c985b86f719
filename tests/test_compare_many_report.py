"""Paper tables, the report folder and ``streamtk compare-many``: contents checked against the numbers behind them."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import numpy as np
import pytest
from scipy import stats as sps

import streamtk
from streamtk.cli import main
from streamtk.comparison import (
    ManyComparison,
    collection_from_array,
    compare_many,
)
from streamtk.io import read_collection
from streamtk.report import results_table, write_report

MODELS = ["HT", "NB", "ARF_1", "kNN"]


@pytest.fixture(scope="module")
def table_coll():
    rng = np.random.default_rng(0)
    v = rng.normal(0.8, 0.02, size=(7, 4, 8)) + np.array([0.03, 0.0, -0.01, 0.01])[None, :, None]
    v[3, 1] = v[3, 0]  # a tie with the best on dataset d_3
    return collection_from_array(v, datasets=[f"d_{i}" for i in range(7)], models=MODELS, metric="kappa")


def _md_rows(text):
    rows = [ln for ln in text.splitlines() if ln.startswith("| ")]
    return [[c.strip() for c in r.strip("|").split("|")] for r in rows]


def test_markdown_cells_bold_ranks_and_markers(table_coll):
    res = compare_many(table_coll, posthoc="holm")
    text = results_table(res, fmt="markdown", digits=3)
    rows = _md_rows(text)
    assert rows[0] == ["Dataset"] + [m.replace("|", "\\|") for m in MODELS]
    v = table_coll["kappa"].isel(summary=0, estimator=0).transpose("dataset", "model", "run").values
    mean, sd = v.mean(axis=2), v.std(axis=2, ddof=1)
    for d, row in enumerate(rows[1:8]):
        assert row[0] == f"d_{d}"
        best = np.round(mean[d], 3).max()
        for m, cell in enumerate(row[1:]):
            nums = [float(x) for x in re.findall(r"\d+\.\d+", cell)]
            assert nums == pytest.approx([mean[d, m], sd[d, m]], abs=6e-4)
            assert cell.startswith("**") == (round(mean[d, m], 3) == best)
            # dagger: significantly worse than the dataset's best by Wilcoxon over the 8 paired runs
            b = int(np.argmax(mean[d]))
            diff = v[d, b] - v[d, m]
            worse = m != b and np.any(diff != 0) and sps.wilcoxon(diff).pvalue <= 0.05 and mean[d, m] < mean[d, b]
            assert cell.endswith("†") == bool(worse)
    assert rows[2][1].startswith("**") or rows[4][1].startswith("**")
    assert sum(c.startswith("**") for c in rows[4][1:]) == 2  # the tie on d_3: both bold
    ranks = rows[8]
    assert ranks[0] == "*Average rank*"
    best_i = int(np.argmin(res.posthoc.average_ranks))
    for m, cell in enumerate(ranks[1:]):
        assert float(re.findall(r"\d+\.\d+", cell)[0]) == pytest.approx(res.posthoc.average_ranks[m], abs=5e-3)
        assert cell.endswith("\\*") == bool(res.posthoc.reject[best_i, m])
    assert "holm post-hoc" in text and "Iman-Davenport" in text


def test_latex_and_html_are_well_formed_and_lower_is_better_bolds_the_minimum(table_coll):
    err = table_coll.copy()
    err["kappa"] = 1 - err["kappa"]
    err = err.rename(kappa="error")
    err["error"].attrs["higher_is_better"] = 0
    tex = results_table(err, fmt="latex", caption="Errors.", label="tab:err", posthoc="holm", control="NB")
    assert tex.count(r"\textbf{") >= 7 and r"ARF\_1" in tex and r"\label{tab:err}" in tex
    assert tex.count("&") == 9 * 4 and r"\toprule" in tex and r"\bottomrule" in tex and "$^{c}$" in tex
    res = compare_many(err, posthoc="holm", control="NB")
    assert not res.higher_is_better
    md = _md_rows(results_table(res, fmt="markdown"))
    v = err["error"].isel(summary=0, estimator=0).transpose("dataset", "model", "run").values.mean(axis=2)
    for d in range(7):
        bold = [c.startswith("**") for c in md[d + 1][1:]]
        assert bold == (np.round(v[d], 3) == np.round(v[d], 3).min()).tolist()
    html_text = results_table(res, fmt="html")

    class Check(HTMLParser):
        def __init__(self):
            super().__init__()
            self.stack, self.cells = [], 0

        def handle_starttag(self, tag, attrs):
            self.stack.append(tag)
            self.cells += tag == "td"

        def handle_endtag(self, tag):
            assert self.stack.pop() == tag

    c = Check()
    c.feed(html_text)
    assert c.stack == [] and c.cells == 8 * 4


def test_one_call_from_the_collection_and_from_the_comparisons_netcdf(tmp_path, table_coll):
    from streamtk.io import open_dataset, write_collection

    res = compare_many(table_coll, posthoc="shaffer")
    direct = results_table(res, fmt="latex")
    assert results_table(table_coll, fmt="latex", posthoc="shaffer") == direct
    back = open_dataset(write_collection(res.to_dataset(), tmp_path / "cmp.nc"))
    assert results_table(back, fmt="latex") == direct
    coll_back = read_collection(write_collection(table_coll, tmp_path / "coll.nc"))
    assert results_table(coll_back, fmt="latex", posthoc="shaffer") == direct
    with pytest.raises(ValueError, match="fmt"):
        results_table(res, fmt="rtf")
    with pytest.raises(TypeError, match="apply to a collection"):
        results_table(res, posthoc="holm")


def test_write_report_writes_each_artefact_once(tmp_path, table_coll):
    res = compare_many(table_coll, posthoc="holm")
    paths = write_report(res, tmp_path / "rep", collection=table_coll, rope=0.01)
    names = sorted(p.name for p in paths)
    assert names == sorted(
        [
            "collection.nc",
            "comparison.nc",
            "comparison.txt",
            "table.tex",
            "table.md",
            "table.html",
            "cd_diagram.pdf",
            "cd_diagram.png",
            "bayesian.nc",
            "bayesian.png",
        ]
    )
    assert (tmp_path / "rep" / "table.md").read_text() == results_table(res, fmt="markdown")
    back = ManyComparison.from_dataset(streamtk.io.open_dataset(tmp_path / "rep" / "comparison.nc"))
    np.testing.assert_array_equal(back.posthoc.pvalue_adjusted, res.posthoc.pvalue_adjusted)
    with pytest.raises(FileExistsError, match="overwrite"):
        write_report(res, tmp_path / "rep")
    assert not list((tmp_path / "rep").glob(".*"))  # no temporary file left behind


def _write_logs(folder):
    from streamtk.io import to_netcdf

    for i in range(5):
        for seed in range(2):
            to_netcdf(streamtk.simulate_log(1200, seed=31 * i + seed), folder / f"s{i}_seed{seed}.nc")


def test_cli_end_to_end_and_reproducible_from_the_collection(tmp_path, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    _write_logs(logs)
    files = sorted(str(p) for p in logs.glob("*.nc"))
    rc = main(
        [
            "compare-many",
            *files,
            "--pattern",
            "{dataset}_seed{run}.nc",
            "--metric",
            "kappa",
            "--summary",
            "final",
            "--posthoc",
            "holm",
            "-o",
            str(tmp_path / "report"),
            "-q",
        ]
    )
    assert rc == 0
    rep = tmp_path / "report"
    coll = read_collection(rep / "collection.nc")
    assert coll["run"].values.tolist() == [0, 1] and coll.sizes["dataset"] == 5
    expected = results_table(compare_many(coll, metric="kappa", posthoc="holm"), fmt="markdown")
    assert (rep / "table.md").read_text() == expected
    assert (rep / "cd_diagram.pdf").exists() == compare_many(coll, metric="kappa").significant
    # every artefact again from the collection's netCDF alone
    rc = main(["compare-many", str(rep / "collection.nc"), "--metric", "kappa", "-o", str(tmp_path / "again"), "-q"])
    assert rc == 0 and (tmp_path / "again" / "table.md").read_text() == expected
    capsys.readouterr()
    rc = main(["compare-many", str(rep / "collection.nc"), "--metric", "kappa", "-o", str(rep)])
    assert rc == 2 and "--overwrite" in capsys.readouterr().err
    rc = main(["compare-many", *files, "--pattern", "{dataset}-{run}.nc", "--metric", "kappa"])
    assert rc == 2 and "does not match" in capsys.readouterr().err
    rc = main(["compare-many", str(tmp_path / "missing.nc")])
    assert rc == 2 and "no such file" in capsys.readouterr().err
    rc = main(
        [
            "compare-many",
            *files,
            "--metric",
            "kappa",
            "--pattern",
            "{dataset}_seed{run}.nc",
            "--posthoc",
            "nemenyi",
            "--control",
            "static",
        ]
    )
    assert rc == 2 and "control" in capsys.readouterr().err
