"""DDM and EDDM against line-by-line restatements of MOA's DDM.java / EDDM.java."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from streamtk.drift.ddm import DDM, ddm
from streamtk.drift.eddm import EDDM, eddm

from ._moa import import_capymoa

MAXV = 1.7976931348623157e308  # Java Double.MAX_VALUE


class RefDDM:
    def __init__(self, min_n=30, warn=2.0, out=3.0):
        self.min_n, self.warn_l, self.out_l = min_n, warn, out
        self.change = self.warning = self.init = False

    def reset(self):
        self.n, self.p, self.s = 1, 1.0, 0.0
        self.psmin = self.pmin = self.smin = MAXV

    def input(self, x):
        if self.change or not self.init:
            self.reset()
            self.init = True
        self.p = self.p + (x - self.p) / self.n
        self.s = math.sqrt(self.p * (1 - self.p) / self.n)
        self.n += 1
        self.change = self.warning = False
        if self.n < self.min_n:
            return
        if self.p + self.s <= self.psmin:
            self.pmin, self.smin, self.psmin = self.p, self.s, self.p + self.s
        if self.n > self.min_n and self.p + self.s > self.pmin + self.out_l * self.smin:
            self.change = True
        elif self.p + self.s > self.pmin + self.warn_l * self.smin:
            self.warning = True


class RefEDDM:
    def __init__(self, min_n=30, min_err=30, warn=0.95, out=0.90):
        self.min_n, self.min_err, self.warn_l, self.out_l = min_n, min_err, warn, out
        self.change = self.warning = self.init = False

    def reset(self):
        self.n, self.ne, self.d, self.lastd = 1, 0, 0, 0
        self.mean = self.stdtemp = self.m2smax = 0.0

    def input(self, x):
        if self.change or not self.init:
            self.reset()
            self.init = True
        self.change = False
        self.n += 1
        if x == 1.0:
            self.warning = False
            self.ne += 1
            self.lastd = self.d
            self.d = self.n - 1
            dist = self.d - self.lastd
            old = self.mean
            self.mean = self.mean + (dist - self.mean) / self.ne
            self.stdtemp = self.stdtemp + (dist - self.mean) * (dist - old)
            m2s = self.mean + 2 * math.sqrt(self.stdtemp / self.ne)
            if m2s > self.m2smax:
                if self.n > self.min_n:
                    self.m2smax = m2s
            else:
                p = m2s / self.m2smax
                if self.n > self.min_n and self.ne > self.min_err and p < self.out_l:
                    self.change = True
                elif self.n > self.min_n and self.ne > self.min_err and p < self.warn_l:
                    self.warning = True
                else:
                    self.warning = False


def run_ref(ref, x):
    dets, warns = [], []
    for i, v in enumerate(x):
        ref.input(float(v))
        if ref.change:
            dets.append(i)
        warns.append(ref.warning)
    return dets, np.array(warns)


def det_list(ds):
    return [int(i) for i in ds["detection_index"].values.ravel() if i >= 0]


def drifting(seed, n, rates):
    rng = np.random.default_rng(seed)
    seg = np.repeat(rates, -(-n // len(rates)))[:n]
    return (rng.random(n) < seg).astype(float)


rates = st.lists(st.floats(0.0, 1.0), min_size=1, max_size=4)


@given(st.integers(0, 10**6), st.integers(1, 1500), rates, st.integers(0, 40), st.floats(1.0, 3.0), st.floats(0.0, 2.0))
def test_ddm_matches_moa(seed, n, rs, min_n, warn, gap):
    out = warn + gap  # the warning level comes first
    x = drifting(seed, n, rs)
    ds = ddm(x, min_instances=min_n, warning_level=warn, drift_level=out)
    dets, warns = run_ref(RefDDM(min_n, warn, out), x)
    assert det_list(ds) == dets
    np.testing.assert_array_equal(ds["warning"].values, warns)
    assert ds["detection"].values.nonzero()[0].tolist() == dets


@given(st.integers(0, 10**6), st.integers(1, 3000), rates, st.integers(0, 40), st.integers(0, 40))
def test_eddm_matches_moa(seed, n, rs, min_n, min_err):
    x = drifting(seed, n, rs)
    ds = eddm(x, min_instances=min_n, min_errors=min_err)
    dets, warns = run_ref(RefEDDM(min_n, min_err), x)
    assert det_list(ds) == dets
    np.testing.assert_array_equal(ds["warning"].values, warns)


def test_moa_detections_on_long_drifting_streams():
    x = drifting(11, 60000, [0.1, 0.3, 0.05, 0.5, 0.2, 0.02])
    assert det_list(ddm(x, trace=False)) == run_ref(RefDDM(), x)[0] != []
    assert det_list(eddm(x, trace=False)) == run_ref(RefEDDM(), x)[0] != []


def test_ddm_hand_computed():
    # 100 correct predictions: p = s = 0 from the 29th input on, so pmin = smin = 0; the first error
    # gives p + s > 0 = pmin + 3 smin -> drift at index 100
    x = np.r_[np.zeros(100), np.ones(20)]
    ds = ddm(x)
    assert det_list(ds) == [100]
    thr = ds["threshold"].values
    assert np.isnan(thr[:28]).all() and (thr[28:100] == 0.0).all()
    p = 1 / 101
    assert ds["statistic"].values[100] == pytest.approx(p + math.sqrt(p * (1 - p) / 101))


def test_eddm_hand_computed():
    # errors every 10th instance: distances 1 (first error, counted from the restart), then 10, 10, ...
    x = np.zeros(400)
    x[::10] = 1
    ds = eddm(x)
    dets, _ = run_ref(RefEDDM(), x)
    assert det_list(ds) == dets
    # counter (1 after the restart) is 2 at index 0, so the first error's distance is 1; then 10, 10, ...
    stat = ds["statistic"].values
    assert np.isnan(stat[:30]).all()  # m2smax stays 0 until the counter exceeds 30

    def m2s(k):  # after k errors
        d = [1] + [10] * (k - 1)
        return np.mean(d) + 2 * np.std(d)

    # index 30 (counter 32 > 30): m2smax = m2s(4); index 40: m2s(5) < m2s(4)
    assert stat[30] == 1.0
    assert stat[40] == pytest.approx(m2s(5) / m2s(4), rel=1e-12)
    assert stat[45] == stat[40]  # unchanged between errors


@pytest.mark.parametrize("fn", [ddm, eddm])
def test_no_alarm_without_errors(fn):
    ds = fn(np.zeros(5000))
    assert int(ds["n_detections"]) == 0 and not ds["warning"].values.any()


def test_ddm_alarm_after_large_step():
    x = drifting(3, 4000, [0.05, 0.6])
    # DDM may raise early false alarms (pmin is noisy at the start); the step must be caught quickly
    assert any(2000 <= i < 2100 for i in det_list(ddm(x)))


def test_grid_equals_one_at_a_time_and_chunks():
    x = np.stack([drifting(s, 5000, [0.1, 0.4, 0.05]) for s in range(3)])
    g = ddm(x, warning_level=[1.5, 2.0], drift_level=[2.5, 3.0, 3.5])
    assert g["statistic"].dims == ("model", "warning_level", "drift_level", "time")
    for w in (1.5, 2.0):
        for d in (2.5, 3.0, 3.5):
            one = ddm(x, warning_level=w, drift_level=d)
            sub = g.sel(warning_level=w, drift_level=d)
            for name in ("statistic", "threshold", "warning", "detection"):
                np.testing.assert_array_equal(sub[name].values, one[name].values)
    ge = eddm(x, drift_level=[0.85, 0.9], warning_level=[0.95, 0.97])
    for d in (0.85, 0.9):
        for w in (0.95, 0.97):
            one = eddm(x, drift_level=d, warning_level=w)
            sub = ge.sel(drift_level=d, warning_level=w)
            for name in ("statistic", "warning", "detection"):
                np.testing.assert_array_equal(sub[name].values, one[name].values)
    for cls, fn in ((DDM, ddm), (EDDM, eddm)):
        one = fn(x)
        det = cls()
        for a, b in ((0, 7), (7, 1234), (1234, 1235), (1235, 5000)):
            det.update(x[:, a:b])
        chunked = det.result()
        for name in one.data_vars:
            np.testing.assert_array_equal(chunked[name].values, one[name].values)


@pytest.mark.parametrize("fn", [ddm, eddm])
def test_non_binary_input_refused(fn):
    with pytest.raises(ValueError, match=r"x must hold 0/1 error indicators, got 0\.5"):
        fn(np.array([0.0, 1.0, 0.5]))


@pytest.mark.parametrize(
    ("fn", "kwargs", "match"),
    [
        (ddm, {"drift_level": 0.0}, "drift_level must be a finite real number > 0, got 0.0"),
        (ddm, {"min_instances": 2.5}, "min_instances must be an integer"),
        (eddm, {"drift_level": 1.2}, r"drift_level must be in \(0, 1\), got 1.2"),
        (ddm, {"warning_level": 3.5}, "warning_level=3.5 is above drift_level=3.0: the warning level must come before"),
        (ddm, {"warning_level": [1.0, 2.0], "drift_level": [1.5, 3.0]}, "warning_level=2.0 is above drift_level=1.5"),
        (eddm, {"warning_level": 0.8}, "warning_level=0.8 is below drift_level=0.9"),
    ],
)
def test_bad_parameters(fn, kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        fn(np.zeros(10), **kwargs)


def test_step_functions_for_fusion_match_the_drivers():
    # the step functions other kernels can fuse into their own loops, called one input at a time
    from streamtk._kernels.detectors import ddm as KD
    from streamtk._kernels.detectors import eddm as KE

    x = drifting(13, 3000, [0.1, 0.5])
    st = KD.RESET
    out = []
    for v in x:
        c, p, s, psmin, pmin, smin, ps = KD.ddm_update(*st, v, 30.0)
        drift = KD.ddm_flags(c, ps, pmin, smin, 30.0, 2.0, 3.0)[3]
        out.append((ps, drift))
        st = KD.RESET if drift else (c, p, s, psmin, pmin, smin)
    ds = ddm(x)
    np.testing.assert_array_equal([o[0] for o in out], ds["statistic"].values)
    assert [i for i, o in enumerate(out) if o[1]] == det_list(ds)
    st, warn, dets = KE.RESET, False, []
    for i, v in enumerate(x):
        c, ne, d, lastd, mean, stdt, m2smax, warn, m2s, _, drift = KE.eddm_step(
            *st[:7], warn, st[7], v, 30.0, 30.0, 0.95, 0.9
        )
        st = (c, ne, d, lastd, mean, stdt, m2smax, m2s)
        if drift:
            dets.append(i)
            st = KE.RESET
    assert dets == det_list(eddm(x))


def test_ddm_grid_with_min_instances_and_chunks():
    # settings with the same min_instances and drift level share one DDM state
    x = np.stack([drifting(s, 6000, [0.05, 0.3, 0.1, 0.5]) for s in range(2)])
    kw = dict(min_instances=[20, 30], warning_level=[1.5, 2.0], drift_level=[2.0, 3.0])
    g = ddm(x, **kw)
    for mi in (20, 30):
        for w in (1.5, 2.0):
            for d in (2.0, 3.0):
                one = ddm(x, min_instances=mi, warning_level=w, drift_level=d)
                sub = g.sel(min_instances=mi, warning_level=w, drift_level=d)
                for name in ("statistic", "threshold", "warning_threshold", "warning", "detection"):
                    np.testing.assert_array_equal(sub[name].values, one[name].values)
                assert det_list(sub.isel(model=0)) == run_ref(RefDDM(mi, w, d), x[0])[0]
    det = DDM(**kw)
    for a, b in ((0, 100), (100, 2999), (2999, 6000)):
        det.update(x[:, a:b])
    chunked = det.result()
    for name in g.data_vars:
        np.testing.assert_array_equal(chunked[name].values, g[name].values)
    assert int(g["n_detections"].sum()) > 16


@pytest.mark.parametrize("fn", [ddm, eddm])
def test_rows_on_threads_equal_rows_alone(fn):
    # rows run in blocks on threads (the kernels release the GIL): each row must be what it is alone
    x = np.stack([drifting(s, 3000, [0.1, 0.45]) for s in range(5)])
    many = fn(x, drift_level=[3.0, 3.5] if fn is ddm else [0.85, 0.9])
    for r in range(5):
        one = fn(x[r], drift_level=[3.0, 3.5] if fn is ddm else [0.85, 0.9])
        for name in one.data_vars:
            mine = many[name].values[r]
            if name == "detection_index":  # padded with -1 to the largest count over the rows
                assert (mine[..., one[name].shape[-1] :] == -1).all()
                mine = mine[..., : one[name].shape[-1]]
            np.testing.assert_array_equal(mine, one[name].values)


# ----------------------------------------------------------------------------- MOA itself
def _moa_run(detector, x):
    dets, warns = [], []
    for i, v in enumerate(x):
        detector.add_element(float(v))
        if detector.detected_change():
            dets.append(i)
        warns.append(bool(detector.detected_warning()))
    return dets, np.array(warns)


def test_identical_to_moa_through_capymoa():
    # MOA itself as the reference: capymoa ships MOA's jar (DDM.java, EDDM.java with MOA's defaults)
    capymoa_drift = import_capymoa("capymoa.drift.detectors")
    from streamtk.drift.synthetic import error_stream

    n = 20_000
    drifts = [4000, 9000, 13000, 17000]
    streams = np.stack([
        error_stream(n, drifts, [0.05, 0.3, 0.1, 0.5, 0.2], seed=11),  # abrupt rises and falls
        error_stream(n, drifts, [0.2, 0.4, 0.15, 0.35, 0.6], width=1500, seed=12),  # gradual changes
        error_stream(n, [10000], [0.3, 0.3], seed=13),  # no change
    ])  # fmt: skip
    for fn, make in ((ddm, capymoa_drift.DDM), (eddm, capymoa_drift.EDDM)):
        ds = fn(streams)
        n_moa = 0
        for r in range(streams.shape[0]):
            dets, warns = _moa_run(make(), streams[r])
            sub = ds.isel(model=r)
            assert det_list(sub) == dets == sub["detection"].values.nonzero()[0].tolist()
            np.testing.assert_array_equal(sub["warning"].values, warns)
            n_moa += len(dets)
        assert n_moa >= 4, fn.__name__  # the changes are detected
    # DDM with non-default levels (passed to MOA on its command line)
    dets, warns = _moa_run(capymoa_drift.DDM(min_n_instances=50, warning_level=1.5, out_control_level=2.5), streams[1])
    ds = ddm(streams[1], min_instances=50, warning_level=1.5, drift_level=2.5)
    assert det_list(ds) == dets and len(dets) >= 2
    np.testing.assert_array_equal(ds["warning"].values, warns)


@pytest.mark.parametrize(("cls", "fn"), [(DDM, ddm), (EDDM, eddm)])
def test_chunks_aligned_by_label_and_pickling_mid_stream(cls, fn):
    import pickle

    import xarray as xr

    x = np.stack([drifting(s, 3000, [0.1, 0.45]) for s in range(3)])
    da = xr.DataArray(x, dims=("model", "time"), coords={"model": ["m1", "m2", "m3"]})
    det = pickle.loads(pickle.dumps(cls().update(da[:, :1100])))
    det.update(da[[1, 2, 0], 1100:])  # the same models in another order
    one = fn(da)
    for name in one.data_vars:
        np.testing.assert_array_equal(det.result()[name].values, one[name].values)
    assert det.result()["model"].values.tolist() == ["m1", "m2", "m3"]


def test_defaults_are_moa_s():
    import inspect

    from streamtk.drift.ddm import DEFAULTS as D
    from streamtk.drift.eddm import DEFAULTS as E

    for fn, cls, defaults in ((ddm, DDM, D), (eddm, EDDM, E)):
        for f in (fn, cls):
            sig = inspect.signature(f).parameters
            assert {k: sig[k].default for k in defaults} == defaults
