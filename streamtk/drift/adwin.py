"""ADWIN change detection on recorded streams (labelled and numpy layers).

ADWIN2 (Bifet & Gavalda 2007) keeps the longest window of recent inputs whose
mean is consistent with "no change" and drops its oldest part when two
sub-windows differ significantly. Bifet et al. 2015 (seed
``000_413ae63613f4eb28.txt``, section 6, Theorem 3) use it as the adaptive
window of prequential evaluation. The kernel is :mod:`streamtk._kernels.adwin`;
this module validates, allocates, runs it over leading dimensions in parallel
and labels the result.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.validation import as_float_array, check_choice, check_in_open_unit_interval, check_positive_int
from .._kernels import adwin as _k
from .._labelled import LeadingDims, base_attrs, split_leading, time_coords

__all__ = ["adwin", "adwin_detections", "Adwin", "VARIANTS"]

#: names of the cut rules, see :func:`adwin`
VARIANTS = tuple(_k.VARIANT_CODES)

_FORMULA = {
    "moa": (
        "cut at a split W = W0 W1 (both sides > min_window + 1 inputs) when |mean(W0) - mean(W1)| > "
        "sqrt(2 m v dd) + 2/3 dd m, dd = ln(2 ln|W| / delta), v = variance of W, "
        "m = 1/(|W0| - min_window + 1) + 1/(|W1| - min_window + 1); MOA ADWIN.java"
    ),
    "theorem3": (
        "cut at a split W = W0 W1 (both sides > min_window + 1 inputs) when |mean(W0) - mean(W1)| >= "
        "sqrt(ln(4/delta') / (2 m)), delta' = delta/|W|, m = 1/(1/|W0| + 1/|W1|); "
        "Bifet et al. 2015, Theorem 3"
    ),
}
_REFERENCE = (
    "Bifet & Gavalda (2007), Learning from time-changing data with adaptive windowing, SDM; "
    "Bifet et al. (2015), Efficient online evaluation of big data stream classifiers, KDD, section 6"
)


def _check_params(delta, max_buckets, clock, min_window, variant) -> dict:
    return {
        "delta": check_in_open_unit_interval(delta, "delta"),
        "max_buckets": check_positive_int(max_buckets, "max_buckets", minimum=2),
        "clock": check_positive_int(clock, "clock"),
        "min_window": check_positive_int(min_window, "min_window"),
        "variant": check_choice(variant, "variant", VARIANTS),
    }


class Adwin:
    """Chunked ADWIN over a stream with optional leading dimensions.

    ``Adwin(...).update(x1).update(x2).result()`` equals ``adwin(concat(x1, x2))``
    exactly: the detector state is carried between chunks. Parameters as in
    :func:`adwin`; the first chunk fixes the leading dimensions (names, shape
    and, for a ``DataArray``, their coordinates); later chunks must have the
    same leading shape.

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

    def __init__(self, *, delta=0.002, max_buckets=5, clock=32, min_window=5, variant="moa", lead_dims=None):
        self.params = _check_params(delta, max_buckets, clock, min_window, variant)
        self._lead_dims = lead_dims
        self._lead: LeadingDims | None = None
        self._state = None
        self._chunks: list[tuple] = []
        self._time_coords: list[dict] = []
        self.n_seen = 0

    def update(self, x) -> Adwin:
        """Process the next chunk ``x`` of shape ``(..., m)``; returns ``self``.

        Raises
        ------
        ValueError
            If ``x`` contains NaN or an infinite value (the message names the
            index within the chunk), or its leading shape differs from the
            first chunk's.
        TypeError
            If ``x`` is not real-valued.
        """
        arr2d, lead, tcoords = split_leading(x, "x", lead_dims=self._lead_dims)
        arr2d = as_float_array(arr2d.reshape(lead.shape + arr2d.shape[-1:]), "x").reshape(arr2d.shape)
        if self._lead is None:
            self._lead = lead
            self._state = _k.adwin_state_new(max(lead.size, 1), self.params["max_buckets"])
        elif (lead.names, lead.shape) != (self._lead.names, self._lead.shape):
            raise ValueError(
                f"x has leading dimensions {dict(zip(lead.names, lead.shape))} but the first chunk had "
                f"{dict(zip(self._lead.names, self._lead.shape))}"
            )
        n_leads, m = arr2d.shape
        width = np.empty((n_leads, m), dtype=np.int64)
        mean = np.empty((n_leads, m), dtype=np.float64)
        variance = np.empty((n_leads, m), dtype=np.float64)
        detection = np.empty((n_leads, m), dtype=np.int8)
        if m and n_leads:
            p = self.params
            args = (p["delta"], p["clock"], p["min_window"], _k.VARIANT_CODES[p["variant"]])
            if n_leads == 1:  # no thread pool (and no parallel compile) for a single stream
                sums, variances, counts, istate, fstate = self._state
                _k.adwin_run_one(
                    np.ascontiguousarray(arr2d[0]),
                    sums[0],
                    variances[0],
                    counts[0],
                    istate[0],
                    fstate[0],
                    *args,
                    width[0],
                    mean[0],
                    variance[0],
                    detection[0],
                )
            else:
                _k.adwin_run(np.ascontiguousarray(arr2d), *self._state, *args, width, mean, variance, detection)
        instance = np.arange(self.n_seen + 1, self.n_seen + m + 1, dtype=np.int64)
        self._chunks.append((width, mean, variance, detection, instance))
        self._time_coords.append(tcoords)
        self.n_seen += m
        return self

    def result(self) -> xr.Dataset:
        """The labelled result of every chunk so far (see :func:`adwin` for its contents)."""
        if self._lead is None:
            raise ValueError("Adwin.result() called before any update(): there is no data yet")
        lead = self._lead
        if len(self._chunks) == 1:
            width, mean, variance, detection, instance = self._chunks[0]
        else:
            parts = list(zip(*self._chunks))
            width, mean, variance, detection = (np.concatenate(p, axis=1) for p in parts[:4])
            instance = np.concatenate(parts[4])
        start = instance[None, :] - width
        dims = lead.names + ("time",)

        def var(values, attrs):
            return xr.Variable(dims, lead.reshape(values), attrs)

        # coordinates along the time dim of DataArray inputs, kept when every chunk has them
        extra = {}
        for name in self._time_coords[0]:
            if all(name in tc for tc in self._time_coords):
                values = np.concatenate([np.asarray(tc[name].values) for tc in self._time_coords])
                extra[name] = ("time", values, self._time_coords[0][name].attrs)
        coords = dict(lead.coords)
        coords.update(time_coords(instance, extra))
        p = self.params
        data_vars = {
            "width": var(width, {"long_name": "ADWIN window width", "units": "instances"}),
            "mean": var(mean, {"long_name": "mean of the inputs in the ADWIN window"}),
            "variance": var(variance, {"long_name": "population variance of the inputs in the ADWIN window"}),
            "start": var(
                start,
                {
                    "long_name": "0-based index of the oldest instance in the ADWIN window",
                    "units": "instances",
                    "formula": "start = instance - width",
                },
            ),
            "detection": var(
                detection,
                {
                    "long_name": "ADWIN change detection",
                    "flag_values": np.array([-1, 0, 1], dtype=np.int8),
                    "flag_meanings": "cut_mean_not_rising no_cut cut_mean_rose",
                    "description": (
                        "0: no cut at this step; +1: the window was cut and its mean after the step is "
                        "greater than before it (the steps MOA's ADWINChangeDetector flags); -1: the window "
                        "was cut otherwise"
                    ),
                },
            ),
        }
        attrs = base_attrs(
            "ADWIN change detection",
            delta=p["delta"],
            max_buckets=p["max_buckets"],
            clock=p["clock"],
            min_window=p["min_window"],
            variant=p["variant"],
            min_width_for_check=_k.MIN_WIDTH_FOR_CHECK,
            formula=_FORMULA[p["variant"]],
            reference=_REFERENCE,
        )
        return xr.Dataset(data_vars, coords=coords, attrs=attrs)


def adwin(x, *, delta=0.002, max_buckets=5, clock=32, min_window=5, variant="moa", lead_dims=None) -> xr.Dataset:
    """Run ADWIN (ADWIN2, exponential histogram) over a real-valued stream.

    Each input ``x_t`` enters a window ``W`` stored as an exponential histogram:
    row ``r`` holds buckets of ``2**r`` consecutive inputs (their total and
    variance), at most ``max_buckets`` per row; when a row overflows its two
    oldest buckets merge into one of the next row. Every ``clock`` inputs, once
    ``|W| > 10``, every bucket boundary splits ``W`` into an older part ``W0``
    and a newer part ``W1``; scanning from the oldest boundary, at the first
    split where both parts hold more than ``min_window + 1`` inputs and

    ``|mean(W0) - mean(W1)| > sqrt(2 m v dd) + (2/3) dd m``  (``variant="moa"``),

    with ``dd = ln(2 ln|W| / delta)``, ``v`` the population variance of ``W`` and
    ``m = 1/(|W0| - min_window + 1) + 1/(|W1| - min_window + 1)``, the oldest
    bucket is dropped and the scan starts again; a step with at least one drop
    is a detection. This is MOA's ``ADWIN`` (``DESIGN.md`` section 4), with every
    floating-point operation (including MOA's 32-bit integer products) in MOA's
    order, so widths, means and detection indices are MOA's.

    ``variant="theorem3"`` replaces the bound by the literal one of Bifet et al.
    2015 (seed ``000_413ae63613f4eb28.txt``, section 6, Theorem 3):
    ``|mean(W0) - mean(W1)| >= eps_cut = sqrt(ln(4/delta') / (2m))`` with
    ``delta' = delta / |W|`` and ``m = 1/(1/|W0| + 1/|W1|)``; the histogram, clock
    and split constraints stay MOA's.

    Parameters
    ----------
    x : array_like or xarray.DataArray, shape (..., n)
        The stream (usually the 0/1 loss of a classifier; any finite values,
        ideally in a bounded range such as [0, 1]); the last axis is time,
        leading axes are independent streams processed in parallel. NaN or
        infinite values are an error.
    delta : float, default 0.002
        Confidence in (0, 1); smaller means fewer false alarms and later
        detections (MOA's and river's default 0.002).
    max_buckets : int, default 5
        ``M``: buckets per histogram row before two merge (MOA's fixed
        ``MAXBUCKETS = 5``; river's ``max_buckets``). At least 2. Larger values
        give finer split points and more work per check.
    clock : int, default 32
        Cut test every ``clock`` inputs (counted from the first input); 1 tests
        at every input (MOA's ``mintClock``, river's ``clock``).
    min_window : int, default 5
        MOA's ``mintMinWinLength``: both parts of a split need more than
        ``min_window + 1`` inputs, and it enters the ``moa`` bound through ``m``.
    variant : {"moa", "theorem3"}, default "moa"
        The cut rule (see above).
    lead_dims : str or sequence of str, optional
        Names of the leading dimensions of a numpy ``x`` (default ``model``,
        ``fold``, ``run``); a ``DataArray`` brings its own.

    Returns
    -------
    xarray.Dataset
        On dims ``(*lead, time)`` with coordinate ``instance`` (1-based count of
        inputs seen), the state after each step: ``width`` (inputs in the
        window), ``mean`` and ``variance`` (population variance) of the window,
        ``start`` (0-based index of the oldest input in the window,
        ``instance - width``) and ``detection`` (int8): 0 = no cut; +1 = cut and
        the window mean after the step is strictly greater than before it;
        -1 = cut otherwise (mean fell, or in a rare tie stayed equal). Every
        parameter, the formula and the references are in ``attrs``.

    Raises
    ------
    ValueError, TypeError
        For non-finite or non-numeric ``x`` (the message names the index), a
        ``delta`` outside (0, 1), non-integer or too small ``max_buckets``,
        ``clock`` or ``min_window``, an unknown ``variant``.

    See Also
    --------
    Adwin : the same, chunk by chunk.
    adwin_detections : detection indices as arrays.
    moa.classifiers.core.driftdetection.ADWIN, ADWINChangeDetector : MOA.
    river.drift.ADWIN : river's port; it differs from MOA in details of the
        scan (e.g. its grace period and its ``min_window_length`` handling), so
        its detection indices are not MOA's.

    Notes
    -----
    MOA's ``ADWINChangeDetector`` reports a change only at the +1 steps (it
    compares ``getEstimation()`` before and after ``setInput``): with the 0/1
    loss, an increase of the error rate. In the version read, its
    ``isChangeDetected`` is never reset to false by ``input`` (only by
    ``resetLearning``); streamtk reports each step separately. Differences
    from MOA: the input counter is 64-bit (MOA's ``int`` wraps after ``2**31``
    inputs) and ``max_buckets`` is a parameter (MOA fixes it to 5).

    Speed: about 90 M inputs/s per stream and core on the development
    machine (MOA's ADWIN about 6 M/s, river's about 5 M/s;
    ``benchmarks/bench_adwin.py``). Most split points of a cut test are
    cleared by a division-free filter whose error bound is proven in
    :mod:`streamtk._kernels.adwin_scan`; MOA's exact expression decides the
    rest, so the results are MOA's bit for bit.

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
        delta=delta, max_buckets=max_buckets, clock=clock, min_window=min_window, variant=variant, lead_dims=lead_dims
    )
    return det.update(x).result()


def adwin_detections(result, *, direction: str = "any"):
    """Indices (0-based, along ``time``) of the steps with a detection.

    Parameters
    ----------
    result : xarray.Dataset or xarray.DataArray
        The output of :func:`adwin` / :meth:`Adwin.result`, or its
        ``detection`` variable.
    direction : {"any", "rise", "fall"}
        ``"any"``: every cut; ``"rise"``: the +1 steps (those MOA's
        ``ADWINChangeDetector`` flags); ``"fall"``: the -1 steps.

    Returns
    -------
    numpy.ndarray or list
        An int64 array for a stream without leading dims; otherwise nested
        lists following the leading shape, e.g. ``out[i][j]`` for lead
        ``(i, j)`` in the Dataset's dim order.
    """
    check_choice(direction, "direction", ("any", "rise", "fall"))
    det = result["detection"] if isinstance(result, xr.Dataset) else result
    if not isinstance(det, xr.DataArray) or "time" not in det.dims:
        raise TypeError("result must be the Dataset returned by adwin() or its 'detection' DataArray")
    values = det.transpose(..., "time").values
    if direction == "any":
        mask = values != 0
    elif direction == "rise":
        mask = values > 0
    else:
        mask = values < 0
    if mask.ndim == 1:
        return np.flatnonzero(mask).astype(np.int64)
    flat = [np.flatnonzero(row).astype(np.int64) for row in mask.reshape(-1, mask.shape[-1])]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(mask.shape[:-1]).tolist()
