"""Every fast path equals its general path on the same inputs: one parametrised test (issue 19, item 1).

:data:`FAST_PATHS` lists each fast path of the library with the check that runs it and its general
path (the switch that turns it off) on the same inputs, whole and in chunks, and asserts equal
outputs: bit for bit, except where the fast path sums the same terms in another order (the AUC's
block-local window ranks and offline divide and conquer under float weights, to 1e-12; see
``tests/test_auc_fastpath.py``). Each family keeps its property tests on random streams beside its
check (``test_engine_exact.py``, ``test_sums_fastpaths.py``, ``test_auc_fastpath.py``,
``test_detector_fast_paths.py``). :func:`test_every_fast_path_is_listed` fails when a family gains a
fast path (a mechanism of the dense kernel, an AUC path, a detector case) that is not listed here.
"""

from __future__ import annotations

import functools

import pytest

from streamtk._kernels.confusion.dense import KINDS as DENSE_KINDS

from . import test_auc_fastpath as auc
from . import test_detector_fast_paths as detectors
from . import test_engine_exact as confusion
from . import test_regression as regression
from . import test_sums_fastpaths as sums


def _auc(path):
    for weights in auc.WEIGHTS:
        auc.check_fast_path(path, weights)


def _detector(case):
    for trace in (False, True):
        # seed 1 raises alarms in every case: restarts, and passes of the lanes on the general path
        assert detectors.check_fast_path(case, seed=1, cuts=[700], trace=trace) > 10


FAST_PATHS = {
    **{f"confusion, dense two-class kernel: {k}": functools.partial(confusion.check_dense_fast_path, m)
       for k, m in confusion.DENSE_MECHANISMS.items()},
    **{f"sums: {k}": functools.partial(sums.check_fast_path, k) for k in sums.SUMS_PATHS},
    **{f"auc: {k}": functools.partial(_auc, k) for k in auc.PATHS},
    **{f"detectors: {k}": functools.partial(_detector, k) for k in [*detectors.CASES, "adwin-loop"]},
    **{f"regression, point predictions: {k}": functools.partial(regression.check_fast_path, k)
       for k in regression.REGRESSION_PATHS},
}  # fmt: skip


@pytest.mark.parametrize("path", list(FAST_PATHS))
def test_fast_path_equals_general_path(path):
    FAST_PATHS[path]()


def test_every_fast_path_is_listed():
    # every mechanism the dense kernel serves is in one of its checks
    from streamtk._core.mechanisms import build_estimators, kernel_arrays

    checked = set()
    for mech in confusion.DENSE_MECHANISMS.values():
        checked |= set(kernel_arrays(build_estimators(**mech))[0].tolist())
    assert set(DENSE_KINDS) <= checked, set(DENSE_KINDS) - checked
    # the AUC engine's routes: interleaved accumulators (with and without prefetch), windows, offline
    assert {"interleaved", "prefetch", "window", "offline"} <= set(auc.PATHS)
    # every detector case of the detector family
    assert all(f"detectors: {k}" in FAST_PATHS for k in detectors.CASES)
