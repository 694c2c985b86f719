"""Predicted labels that barely overlap the true ones (two codings of the classes) give a warning.

The rule is in :mod:`streamtk._core.labels` ("Labels that do not match"); issue 35, item 1.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import streamtk
from streamtk import io as sio
from streamtk._core.labels import LabelMismatchWarning, encode_labels
from streamtk.cli import main


def _shifted_binary(n=2000, seed=0):
    """True labels 1/2 (2 the majority), predictions of a good model coded 0/1 (0 for 1, 1 for 2)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.7, 2, 1)
    good = np.where(rng.random(n) < 0.9, y, 3 - y)
    return y, good - 1


def test_disjoint_spellings_warn_naming_both_label_sets():
    y = np.array(["UP", "DOWN", "UP", "UP", "DOWN"] * 6)
    p = np.array(["up", "down", "up", "down", "down"] * 6)
    with pytest.warns(LabelMismatchWarning) as rec:
        ds = streamtk.evaluate(y, p, metrics=["accuracy"])
    msg = str(rec[0].message)
    for needle in ("['down', 'up']", "['DOWN', 'UP']", "do not overlap", "classes="):
        assert needle in msg
    assert rec[0].filename == __file__  # points at the caller's line, not into streamtk
    assert ds.accuracy.isel(time=-1).item() == 0.0  # still evaluated as asked


def test_shifted_binary_coding_warns_whichever_class_is_the_majority():
    y, p = _shifted_binary()
    assert (p == 1).mean() > 0.5  # most predictions are a label of y_true (1): the matched share decides
    with pytest.warns(LabelMismatchWarning, match=r"predicts the labels \[0\] that y_true never has"):
        streamtk.evaluate(y, p, metrics=["accuracy"])
    with pytest.warns(LabelMismatchWarning, match=r"never predicts y_true's labels \[2\]"):
        streamtk.evaluate(y, p[None, :].repeat(2, 0), metrics=["accuracy"])


def test_one_series_of_several_is_named():
    y, p = _shifted_binary()
    preds = np.stack([y, p, y])
    with pytest.warns(LabelMismatchWarning, match=r"y_pred \(series at index \(1,\)\)"):
        streamtk.evaluate(y, preds, metrics=["accuracy"])


@pytest.mark.parametrize(
    "case",
    ["constant", "majority_missing_classes", "few_outside", "classes_given", "log_class_order"],
)
def test_no_warning_for_honest_predictions(case):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 4, 500)  # the majority class holds about a quarter
    kw = {}
    if case == "constant":
        p = np.zeros_like(y)
    elif case == "majority_missing_classes":
        p = np.where(y < 2, y, 0)
    elif case == "few_outside":  # a learner's first prediction from a declared schema class
        p = y.copy()
        p[:3] = 9
    else:
        p = y + 10  # a deliberate second coding, declared by a class order
        if case == "classes_given":
            kw["classes"] = list(range(4)) + list(range(10, 14))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if case == "log_class_order":
            streamtk.evaluate(sio.make_log(y, p, classes=list(range(4)) + list(range(10, 14))), metrics=["accuracy"])
        else:
            streamtk.evaluate(y, p, metrics=["accuracy"], **kw)


def test_compare_and_holdout_warn_too_but_chunks_do_not():
    y, p = _shifted_binary()
    with pytest.warns(LabelMismatchWarning, match="y_pred_b"):
        streamtk.compare(y, p + 1, p)
    with pytest.warns(LabelMismatchWarning, match="y_pred_holdout"):
        streamtk.evaluate_holdout(y[:100], p[None, :100], instance=[100], metrics=["accuracy"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cmp = streamtk.Comparator(every=10)
        cmp.update([1], [0], [0])  # one instance of a longer stream proves nothing
        streamtk.evaluate(np.array(["UP"] * 29), np.array(["up"] * 29), metrics=["accuracy"])  # too few
        encode_labels(y, p, check_overlap=False)


def test_cli_evaluate_shows_the_warning(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("y_true,y_pred\n" + "UP,up\nDOWN,down\nUP,up\nUP,down\n" * 8)
    with pytest.warns(LabelMismatchWarning, match="'DOWN', 'UP'"):
        assert main(["evaluate", str(path), "--metrics", "accuracy", "--quiet"]) == 0
    r = subprocess.run(
        [sys.executable, "-m", "streamtk", "evaluate", str(path), "--metrics", "accuracy", "--quiet"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert "LabelMismatchWarning" in r.stderr and "['down', 'up']" in r.stderr


@pytest.mark.parametrize("k", [1, 2, 5, 32, 33, 200])
def test_the_presence_of_codes_is_that_of_a_set(k):
    # the check's fast presence test (one comparison per class for few classes, a count for many), with missing codes
    from streamtk._core.labels import MISSING, _codes_present

    rng = np.random.default_rng(k)
    for dtype in (np.int8 if k < 127 else np.int16, np.int32):
        for n in (0, 1, 50, 3000):
            codes = rng.integers(0, k, n).astype(dtype)
            codes[rng.random(n) < 0.3] = MISSING
            codes[codes == k // 2] = MISSING  # a class never present
            want = np.array([i in set(codes[codes >= 0].tolist()) for i in range(k)])
            np.testing.assert_array_equal(_codes_present(codes, k), want)
