"""ADWIN change detection on recorded streams (numpy and labelled layers).

ADWIN2 (Bifet & Gavalda 2007) keeps the longest window of recent inputs whose mean is consistent
with "no change" and drops its oldest part when two sub-windows differ significantly. Bifet et al.
2015 (seed ``000_413ae63613f4eb28.txt``, section 6, Theorem 3) use it as the adaptive window of
prequential evaluation. The kernels are :mod:`streamtk._kernels.adwin` (MOA's algorithm bit for
bit); this module validates, allocates, runs them over leading dims on threads and labels the
result.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.adwin import ADWIN_DEFAULTS, check_adwin_delta, check_adwin_params
from .._core.validation import check_choice
from .._kernels import adwin as _k
from .._labelled import base_attrs, time_coords
from ._common import ChunkReader, check_bool, run_rows

__all__ = ["adwin", "adwin_detections", "Adwin", "BOUNDS", "DEFAULTS"]

#: names of the cut rules (``bound=``), see :func:`adwin`
BOUNDS = tuple(_k.BOUND_CODES)
#: ADWIN's parameters and their defaults (MOA's): the same for the detector and for ``adwin=`` estimators
DEFAULTS = {"delta": 0.002, **ADWIN_DEFAULTS}

_FORMULA = {
    "bernstein": (
        "cut at a split W = W0 W1 (both sides > min_window + 1 inputs) when |mean(W0) - mean(W1)| > "
        "sqrt(2 m v dd) + 2/3 dd m, dd = ln(2 ln|W| / delta), v = variance of W, "
        "m = 1/(|W0| - min_window + 1) + 1/(|W1| - min_window + 1); MOA ADWIN.java"
    ),
    "hoeffding": (
        "cut at a split W = W0 W1 (both sides > min_window + 1 inputs) when |mean(W0) - mean(W1)| >= "
        "sqrt(ln(4/delta') / (2 m)), delta' = delta/|W|, m = 1/(1/|W0| + 1/|W1|); Bifet et al. 2015, Theorem 3"
    ),
}
_REFERENCE = (
    "Bifet & Gavalda (2007), Learning from time-changing data with adaptive windowing, SDM; "
    "Bifet et al. (2015), Efficient online evaluation of big data stream classifiers, KDD, section 6"
)
_TRACE_ATTRS = {
    "width": {"long_name": "ADWIN window width", "units": "instances"},
    "mean": {"long_name": "mean of the inputs in the ADWIN window"},
    "variance": {"long_name": "population variance of the inputs in the ADWIN window"},
    "start": {
        "long_name": "0-based index of the oldest instance in the ADWIN window",
        "units": "instances",
        "formula": "start = instance - width",
    },
    "detection": {
        "long_name": "ADWIN change detection",
        "flag_values": np.array([-1, 0, 1], dtype=np.int8),
        "flag_meanings": "cut_mean_not_rising no_cut cut_mean_rose",
        "description": (
            "0: no cut at this step; +1: the window was cut and its mean after the step is greater than "
            "before it (the steps MOA's ADWINChangeDetector flags); -1: the window was cut otherwise"
        ),
    },
}


def padded_cuts(hits: list) -> tuple[np.ndarray, np.ndarray]:
    """Per-series lists of ``(index, sign)`` cuts as ``(index, sign)`` arrays ``(series, most cuts)``.

    Rows with fewer cuts are padded with index -1 and sign 0.
    """
    width = max([len(h) for h in hits] + [0])
    idx = np.full((len(hits), width), -1, dtype=np.int64)
    sign = np.zeros((len(hits), width), dtype=np.int8)
    for r, h in enumerate(hits):
        if h:
            idx[r, : len(h)] = [i for i, _ in h]
            sign[r, : len(h)] = [s for _, s in h]
    return idx, sign


def _check_params(delta, max_buckets, clock, min_window, bound) -> dict:
    return {"delta": check_adwin_delta(delta), **check_adwin_params(max_buckets, clock, min_window, bound)}


class Adwin:
    """Chunked ADWIN over a stream with optional leading dimensions.

    ``Adwin(...).update(x1).update(x2).result()`` equals ``adwin(concat(x1, x2))`` exactly: the
    detector state is carried between chunks. Parameters as in :func:`adwin`; the first chunk fixes
    the leading dimensions (names, shape and, for a ``DataArray``, their labels); later chunks must
    have the same leading dims, a ``DataArray`` chunk is aligned to the first one's labels.

    Attributes
    ----------
    n_seen : int
        Number of time steps processed so far.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = np.r_[rng.random(3000) < 0.2, rng.random(3000) < 0.6].astype(float)
    >>> det = Adwin(delta=0.002)
    >>> _ = det.update(x[:2500]).update(x[2500:])
    >>> ds = det.result()
    >>> bool((ds.detection.values == adwin(x).detection.values).all())
    True
    """

    def __init__(
        self, *, delta=0.002, max_buckets=5, clock=32, min_window=5, bound="bernstein", trace=True, lead_dims=None
    ):
        self.params = _check_params(delta, max_buckets, clock, min_window, bound)
        self.trace = check_bool(trace, "trace")
        self._reader = ChunkReader(lead_dims)
        self._state = None
        self._chunks: list[tuple] = []
        self._time_coords: list[dict] = []
        self._hits: list[list[tuple[int, int]]] = []
        self.n_seen = 0

    @property
    def _lead(self):
        return self._reader.lead

    def update(self, x) -> Adwin:
        """Process the next chunk ``x`` of shape ``(..., m)``; returns ``self``.

        Raises
        ------
        ValueError
            If ``x`` contains NaN or an infinite value (the message names the index), or its
            leading dims differ from the first chunk's.
        TypeError
            If ``x`` is not real-valued.
        """
        arr2d, tcoords = self._reader.read(x)
        n_leads, m = arr2d.shape
        if self._state is None:
            self._state = _k.adwin_state_new(max(n_leads, 1), self.params["max_buckets"])
            self._hits = [[] for _ in range(n_leads)]
        shape = (n_leads, m) if self.trace else (n_leads, 0)
        out = (
            np.empty(shape, dtype=np.int64),
            np.empty(shape, dtype=np.float64),
            np.empty(shape, dtype=np.float64),
            np.empty((n_leads, m), dtype=np.int8),
        )
        if m and n_leads:
            p = self.params
            params = (p["delta"], p["clock"], p["min_window"], _k.BOUND_CODES[p["bound"]])
            x2 = np.ascontiguousarray(arr2d)

            if n_leads == 1:  # one stream: the loop kernel itself (the leads' driver is not compiled)
                _k.adwin_run_one(x2[0], tuple(s[0] for s in self._state), params, tuple(o[0] for o in out))
            else:

                def rows(a, b):
                    _k.adwin_run(x2[a:b], tuple(s[a:b] for s in self._state), params, tuple(o[a:b] for o in out))

                run_rows(rows, n_leads)
        detection = out[3]
        flat = np.flatnonzero(detection != 0)  # much faster than a 2-d np.nonzero
        for r, t in zip((flat // max(m, 1)).tolist(), (flat % max(m, 1)).tolist()):
            self._hits[r].append((self.n_seen + t, int(detection[r, t])))
        if self.trace:
            instance = np.arange(self.n_seen + 1, self.n_seen + m + 1, dtype=np.int64)
            self._chunks.append((out[0], out[1], out[2], detection, instance))
            self._time_coords.append(tcoords)
        self.n_seen += m
        return self

    def detections(self) -> list:
        """Per lead (flattened), the cuts so far as ``(0-based index, sign)`` pairs (sign +1: the mean rose)."""
        if self._lead is None:
            raise ValueError("no data: call update(x) first")
        return self._hits

    def result(self) -> xr.Dataset:
        """The labelled result of every chunk so far (see :func:`adwin` for its contents)."""
        if self._lead is None:
            raise ValueError("Adwin.result() called before any update(): there is no data yet")
        lead = self._lead
        hits = self._hits
        idx, sign = padded_cuts(hits)
        ddims = lead.names + ("detection_number",)
        data_vars = {
            "n_detections": xr.Variable(
                lead.names,
                np.array([len(h) for h in hits], dtype=np.int64).reshape(lead.shape),
                {"long_name": "number of cuts", "units": "1"},
            ),
            "detection_index": xr.Variable(
                ddims,
                lead.reshape(idx),
                {
                    "long_name": "0-based instance index of each cut",
                    "units": "1",
                    "fill_value_meaning": "-1 pads rows with fewer cuts",
                },
            ),
            "detection_sign": xr.Variable(
                ddims,
                lead.reshape(sign),
                {"long_name": "+1: the window mean rose at the cut (MOA's change detector flags these), -1: not"},
            ),
        }
        coords = dict(lead.coords)
        if self.trace:
            data_vars.update(self._trace_vars())
            coords.update(self._time_coordinates())
        p = self.params
        attrs = base_attrs(
            "ADWIN change detection",
            **p,
            trace=self.trace,
            n_instances=self.n_seen,
            min_width_for_check=_k.MIN_WIDTH_FOR_CHECK,
            formula=_FORMULA[p["bound"]],
            reference=_REFERENCE,
        )
        return xr.Dataset(data_vars, coords=coords, attrs=attrs)

    def _trace_vars(self) -> dict:
        lead = self._lead
        if len(self._chunks) == 1:  # no copies
            width, mean, variance, detection, instance = self._chunks[0]
        else:
            parts = list(zip(*self._chunks))
            width, mean, variance, detection = (np.concatenate(p, axis=1) for p in parts[:4])
            instance = np.concatenate(parts[4])
        start = instance[None, :] - width
        dims = lead.names + ("time",)
        values = {"width": width, "mean": mean, "variance": variance, "start": start, "detection": detection}
        return {k: xr.Variable(dims, lead.reshape(values[k]), _TRACE_ATTRS[k]) for k in _TRACE_ATTRS}

    def _time_coordinates(self) -> dict:
        """``instance`` plus the coordinates along the time dim of DataArray inputs, kept when every chunk has them."""
        extra = {}
        for name in self._time_coords[0]:
            if name != "instance" and all(name in tc for tc in self._time_coords):
                values = np.concatenate([np.asarray(tc[name].values) for tc in self._time_coords])
                extra[name] = ("time", values, self._time_coords[0][name].attrs)
        chunks = self._chunks
        instance = chunks[0][4] if len(chunks) == 1 else np.arange(1, self.n_seen + 1, dtype=np.int64)
        return time_coords(instance, extra)


def adwin(
    x, *, delta=0.002, max_buckets=5, clock=32, min_window=5, bound="bernstein", trace=True, lead_dims=None
) -> xr.Dataset:
    """Run ADWIN (ADWIN2, exponential histogram) over a real-valued stream.

    Each input ``x_t`` enters a window ``W`` stored as an exponential histogram: row ``r`` holds
    buckets of ``2**r`` consecutive inputs (their total and variance), at most ``max_buckets`` per
    row; when a row overflows its two oldest buckets merge into one of the next row. Every
    ``clock`` inputs, once ``|W| > 10``, every bucket boundary splits ``W`` into an older part
    ``W0`` and a newer part ``W1``; scanning from the oldest boundary, at the first split where both
    parts hold more than ``min_window + 1`` inputs and

    ``|mean(W0) - mean(W1)| > sqrt(2 m v dd) + (2/3) dd m``  (``bound="bernstein"``),

    with ``dd = ln(2 ln|W| / delta)``, ``v`` the population variance of ``W`` and
    ``m = 1/(|W0| - min_window + 1) + 1/(|W1| - min_window + 1)``, the oldest bucket is dropped and
    the scan starts again; a step with at least one drop is a cut. This is MOA's ``ADWIN``
    (``DESIGN.md`` section 4), every floating-point operation (MOA's 32-bit integer products
    included) in MOA's order, so widths, means and cuts are MOA's.

    ``bound="hoeffding"`` replaces the bound by the one of Bifet et al. 2015 (seed
    ``000_413ae63613f4eb28.txt``, section 6, Theorem 3):
    ``|mean(W0) - mean(W1)| >= eps_cut = sqrt(ln(4/delta') / (2m))`` with ``delta' = delta / |W|``
    and ``m = 1/(1/|W0| + 1/|W1|)``; the histogram, clock and split constraints stay MOA's.

    Parameters
    ----------
    x : array_like or xarray.DataArray, shape (..., n)
        The stream (usually the 0/1 loss of a classifier; any finite values, ideally in a bounded
        range such as [0, 1]); the last axis is time, leading axes are independent streams
        processed in parallel. NaN or infinite values are an error.
    delta : float, default 0.002
        Confidence in (0, 1); smaller means fewer false alarms and later detections (MOA's and
        river's default).
    max_buckets : int, default 5
        ``M``: buckets per histogram row before two merge (MOA's fixed ``MAXBUCKETS = 5``). At
        least 2.
    clock : int, default 32
        Cut test every ``clock`` inputs (counted from the first input); 1 tests at every input.
    min_window : int, default 5
        MOA's ``mintMinWinLength``: both parts of a split need more than ``min_window + 1``
        inputs, and it enters the ``bernstein`` bound through ``m``.
    bound : {"bernstein", "hoeffding"}, default "bernstein"
        The cut rule (see above); the same names as ``adwin_options["bound"]`` of
        :func:`streamtk.evaluate`.
    trace : bool, default True
        Keep the per-step variables (``width``, ``mean``, ``variance``, ``start``, ``detection``);
        with ``False`` only the cuts are kept.
    lead_dims : str or sequence of str, optional
        Names of the leading dims of a numpy ``x`` (default ``model``, ``fold``, ``run``); a
        ``DataArray`` brings its own.

    Returns
    -------
    xarray.Dataset
        ``n_detections`` (cuts), ``detection_index`` (0-based index of each cut, padded with -1
        along ``detection_number``) and ``detection_sign`` (+1 where the window mean rose, else
        -1) on the leading dims; with ``trace``, on dims ``(*lead, time)`` with coordinate
        ``instance`` (1-based count of inputs seen), the state after each step: ``width``,
        ``mean`` and ``variance`` (population variance) of the window, ``start`` (``instance -
        width``) and ``detection`` (int8): 0 = no cut; +1 = cut and the window mean after the step
        is strictly greater than before it; -1 = cut otherwise. Every parameter, the formula and
        the references are in ``attrs``.

    Raises
    ------
    ValueError, TypeError
        For non-finite or non-numeric ``x`` (the message names the index), a ``delta`` outside
        (0, 1), non-integer or too small ``max_buckets``, ``clock`` or ``min_window``, an unknown
        ``bound``.

    See Also
    --------
    Adwin : the same, chunk by chunk.
    adwin_detections : detection indices as arrays.
    moa.classifiers.core.driftdetection.ADWIN, ADWINChangeDetector : MOA.
    river.drift.ADWIN : river's port; it differs from MOA in details of the scan (e.g. its grace
        period and its ``min_window_length`` handling), so its detection indices are not MOA's.

    Notes
    -----
    MOA's ``ADWINChangeDetector`` reports a change only at the +1 steps (it compares
    ``getEstimation()`` before and after ``setInput``): with the 0/1 loss, an increase of the error
    rate. Differences from MOA: the input counter is 64-bit (MOA's ``int`` wraps after ``2**31``
    inputs) and ``max_buckets`` is a parameter (MOA fixes it to 5). Most split points of a cut test
    are cleared by a division-free filter whose error bound is proven in
    :mod:`streamtk._kernels.adwin.scan`; MOA's exact expression decides the rest, so the results
    are MOA's bit for bit (``benchmarks/bench_adwin.py``: about 14x MOA's speed).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> loss = np.r_[rng.random(5000) < 0.2, rng.random(5000) < 0.5].astype(float)
    >>> ds = adwin(loss)
    >>> idx = adwin_detections(ds)
    >>> bool(idx.size > 0 and 5000 <= idx[0] < 6000)
    True
    """
    det = Adwin(
        delta=delta,
        max_buckets=max_buckets,
        clock=clock,
        min_window=min_window,
        bound=bound,
        trace=trace,
        lead_dims=lead_dims,
    )
    return det.update(x).result()


def adwin_detections(result, *, direction: str = "any"):
    """Indices (0-based, along ``time``) of the steps with a cut.

    Parameters
    ----------
    result : xarray.Dataset or xarray.DataArray
        The output of :func:`adwin` / :meth:`Adwin.result`, or its ``detection`` variable.
    direction : {"any", "rise", "fall"}
        ``"any"``: every cut; ``"rise"``: the +1 steps (those MOA's ``ADWINChangeDetector``
        flags); ``"fall"``: the -1 steps.

    Returns
    -------
    numpy.ndarray or list
        An int64 array for a stream without leading dims; otherwise nested lists following the
        leading shape, e.g. ``out[i][j]`` for lead ``(i, j)`` in the Dataset's dim order.
    """
    check_choice(direction, "direction", ("any", "rise", "fall"))
    if isinstance(result, xr.Dataset) and "detection" not in result and "detection_sign" in result:
        sign = result["detection_sign"].transpose(..., "detection_number").values
        index = result["detection_index"].transpose(..., "detection_number").values
        keep = {"any": sign != 0, "rise": sign > 0, "fall": sign < 0}[direction]
        if index.ndim == 1:
            return index[keep].astype(np.int64)
        flat = [
            i[k].astype(np.int64) for i, k in zip(index.reshape(-1, index.shape[-1]), keep.reshape(-1, keep.shape[-1]))
        ]
        return _nested(flat, index.shape[:-1])
    det = result["detection"] if isinstance(result, xr.Dataset) else result
    if not isinstance(det, xr.DataArray) or "time" not in det.dims:
        raise TypeError("result must be the Dataset returned by adwin() or its 'detection' DataArray")
    values = det.transpose(..., "time").values
    mask = {"any": values != 0, "rise": values > 0, "fall": values < 0}[direction]
    if mask.ndim == 1:
        return np.flatnonzero(mask).astype(np.int64)
    return _nested([np.flatnonzero(row).astype(np.int64) for row in mask.reshape(-1, mask.shape[-1])], mask.shape[:-1])


def _nested(flat: list, shape: tuple) -> list:
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(shape).tolist()
