"""Comparing two stream learners over time: Q statistic and signed McNemar test.

Gama, Sebastiao & Rodrigues 2013 (``seeds/004_*.txt``, section 4) and Gama's 2014
tutorial slides (``seeds/002_*.txt``, "Comparing Performance" and "Signed McNemar
Test") compare two learners A and B on the same stream continuously:

* the **Q statistic** of the accumulated losses ``Q_i(A, B) = log(S_i^A / S_i^B)``,
  for any loss, over the whole stream, a sliding window, or with a fading factor
  ``Q_i^alpha = log((L_i(A) + alpha S_{i-1}^A) / (L_i(B) + alpha S_{i-1}^B))``;
* for the 0-1 loss, the **signed McNemar statistic**
  ``M = sign(n01 - n10) (n01 - n10)**2 / (n01 + n10)`` (chi-square with one degree
  of freedom under "A and B have the same error"; 6.635 is the 99% threshold),
  with the contingency counts over the same estimators.

Orientation: A is the first model. ``Q > 0`` and ``M > 0`` mean that A has the
larger loss (A is worse); ``Q < 0``, ``M < 0`` that B is worse. ``n01`` counts the
instances A gets wrong and B gets right, ``n10`` the converse, ``n11`` both wrong,
``n00`` both right (for faded estimators these are faded counts).

Everything (every estimator, every pair) is computed in one pass by
:func:`streamtk._kernels.compare.pair_run`.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from scipy import stats as _stats

from ._kernels import compare as _k
from ._labelled import LeadingDims, split_leading
from ._validation import as_float_array, check_in_open_unit_interval
from .engine import encode_inputs
from .estimators import build_estimators
from .losses import _dataset, checkpoints, estimator_arrays

__all__ = ["compare", "compare_losses", "mcnemar_threshold"]

_REF_Q = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4; Gama 2014 tutorial (seed 002)"
_REF_M = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4.1; Dietterich 1998; Bifet et al. 2015 (seed 000), sec. 4"
_ORIENTATION = ("A is the first model: Q > 0 and M > 0 mean A has the larger loss; n01 = A wrong and B right, "
                "n10 = B wrong and A right, n11 = both wrong, n00 = both right")
_SWAP = [_k.SB, _k.SA, _k.SV, _k.SU, _k.SN]


def mcnemar_threshold(significance: float = 0.01) -> float:
    """Critical value of ``|M|``: the ``1 - significance`` quantile of chi-square(1).

    >>> round(mcnemar_threshold(0.01), 3)
    6.635
    """
    significance = check_in_open_unit_interval(significance, "significance")
    return float(_stats.chi2.isf(significance, 1))


def _pair_raw(loss: np.ndarray, ia: np.ndarray, ib: np.ndarray, specs, ck: np.ndarray) -> np.ndarray:
    """Raw sums ``(P, C, E, 5)`` of every pair (numpy layer over :func:`pair_run`)."""
    kinds, wsize, alphas = estimator_arrays(specs)
    P, E = ia.shape[0], kinds.shape[0]
    state = np.zeros((P, E, 5))
    out = np.empty((P, ck.shape[0], E, 5))
    _k.pair_run(np.ascontiguousarray(loss, dtype=np.float64), ia.astype(np.int64), ib.astype(np.int64),
                kinds, wsize, alphas, 0, ck, state, out)
    return out


def _finalise(raw: np.ndarray, threshold: float, binary: bool) -> dict:
    """Statistics from raw sums ``(..., 5)``: dict of arrays shaped ``raw.shape[:-1]``."""
    shape = raw.shape[:-1]
    flat = np.ascontiguousarray(raw.reshape(-1, 5))
    K = flat.shape[0]
    q, la, lb = np.empty(K), np.empty(K), np.empty(K)
    kb = K if binary else 0
    counts, m, p = np.empty((kb, 4)), np.empty(kb), np.empty(kb)
    rej = np.empty(kb, dtype=np.bool_)
    _k.pair_finalise(flat, threshold, q, la, lb, counts, m, p, rej)
    res = {"q": q, "loss_a": la, "loss_b": lb, "n_instances": flat[:, _k.SN]}
    if binary:
        for j, nm in enumerate(("n00", "n01", "n10", "n11")):
            res[nm] = counts[:, j]
        res.update(mcnemar=m, p_value=p, reject=rej)
    return {k: v.reshape(shape) for k, v in res.items()}


_ATTRS = {
    "q": dict(long_name="Q statistic log(S_A / S_B)", units="1",
              formula="log(S_A / S_B) of the losses held by the estimator; fading: "
                      "log((l_A + alpha S_A(t-1)) / (l_B + alpha S_B(t-1))); NaN when S_A = S_B = 0, "
                      "-inf/+inf when only S_A/S_B is 0", reference=_REF_Q),
    "loss_a": dict(long_name="mean loss of model A", units="", formula="S_A / N", reference=_REF_Q),
    "loss_b": dict(long_name="mean loss of model B", units="", formula="S_B / N", reference=_REF_Q),
    "n_instances": dict(long_name="number of instances held by the estimator (fading: N_t)", units="1",
                        formula="prequential t; window min(t, w); fading N_t = 1 + alpha N_(t-1)",
                        reference=_REF_Q),
    "n00": dict(long_name="instances both models classify correctly", units="1", formula="sum [A right][B right]",
                reference=_REF_M),
    "n01": dict(long_name="instances A misclassifies and B classifies correctly", units="1",
                formula="sum [A wrong][B right]", reference=_REF_M),
    "n10": dict(long_name="instances B misclassifies and A classifies correctly", units="1",
                formula="sum [B wrong][A right]", reference=_REF_M),
    "n11": dict(long_name="instances both models misclassify", units="1", formula="sum [A wrong][B wrong]",
                reference=_REF_M),
    "mcnemar": dict(long_name="signed McNemar statistic", units="1",
                    formula="sign(n01 - n10) (n01 - n10)**2 / (n01 + n10); NaN when n01 + n10 = 0",
                    reference=_REF_M),
    "p_value": dict(long_name="p-value of the McNemar test", units="1",
                    formula="P(chi2_1 > |M|) = erfc(sqrt(|M| / 2)); NaN when M is NaN", reference=_REF_M),
    "reject": dict(long_name="McNemar test rejects equal error rates", units="1",
                   formula="|M| > chi2_1 quantile at 1 - significance (6.635 at 0.01); False when M is NaN",
                   reference=_REF_M),
}


def _labelled(stats: dict, lead: LeadingDims, pair_dims: tuple, pair_coords: dict, specs, positions, tcoords,
              title, **params) -> xr.Dataset:
    """Arrays ``(*lead, *pair, C, E)`` -> Dataset on ``(*lead, *pair, estimator, time)``."""
    dims = lead.names + pair_dims + ("estimator", "time")
    data = {k: xr.Variable(dims, np.swapaxes(v, -1, -2), attrs=_ATTRS[k]) for k, v in stats.items()}
    ds = _dataset(data, lead, specs, positions, tcoords, title, **params)
    return ds.assign_coords(pair_coords)


def _compare(losses: list, leads: list, present, n, *, model_dim, windows, fading, every, significance,
             binary, tcoords, title, loss_name):
    specs = build_estimators(windows, fading)
    threshold = mcnemar_threshold(significance)
    positions, ck = checkpoints(n, every, present)
    params = dict(every=every, significance=significance, mcnemar_threshold=threshold, orientation=_ORIENTATION,
                  loss=loss_name)
    if len(losses) == 2:
        if model_dim is not None:
            raise ValueError(f"model_dim={model_dim!r} is for a single array holding all models; "
                             "pass either y_pred_a and y_pred_b or one array with model_dim")
        la, lb = losses
        lead_a, lead_b = leads
        if (lead_a.names, lead_a.shape) != (lead_b.names, lead_b.shape):
            raise ValueError(f"the two models' leading dimensions do not agree: {dict(zip(lead_a.names, lead_a.shape))}"
                             f" vs {dict(zip(lead_b.names, lead_b.shape))}")
        L = la.shape[0]
        raw = _pair_raw(np.concatenate([la, lb]), np.arange(L), np.arange(L, 2 * L), specs, ck)
        stats = {k: lead_a.reshape(v) for k, v in _finalise(raw, threshold, binary).items()}
        return _labelled(stats, lead_a, (), {}, specs, positions, tcoords, title, **params)
    (loss,), (lead,) = losses, leads
    if model_dim is None:
        raise ValueError("give the second model (y_pred_b / loss_b) or name the model dimension with model_dim=")
    if model_dim not in lead.names:
        raise ValueError(f"model_dim {model_dim!r} is not a leading dimension of the input; its leading dims are "
                         f"{lead.names}")
    axis = lead.names.index(model_dim)
    M = lead.shape[axis]
    rest_names = lead.names[:axis] + lead.names[axis + 1:]
    rest_shape = lead.shape[:axis] + lead.shape[axis + 1:]
    idx = np.moveaxis(np.arange(lead.size).reshape(lead.shape), axis, -1).reshape(-1, M)
    a, b = np.triu_indices(M)
    raw = _pair_raw(loss, idx[:, a].ravel(), idx[:, b].ravel(), specs, ck)
    raw = raw.reshape((idx.shape[0], a.size) + raw.shape[1:])
    full = np.empty((idx.shape[0], M, M) + raw.shape[2:])
    full[:, a, b] = raw
    full[:, b, a] = raw[..., _SWAP]
    stats = {k: v.reshape(rest_shape + v.shape[1:]) for k, v in _finalise(full, threshold, binary).items()}
    rest = LeadingDims(rest_names, rest_shape,
                       {k: v for k, v in lead.coords.items() if model_dim not in v.dims})
    labels = lead.coords[model_dim].values if model_dim in lead.coords else np.arange(M)
    pair_coords = {"model_a": ("model_a", labels), "model_b": ("model_b", labels)}
    return _labelled(stats, rest, ("model_a", "model_b"), pair_coords, specs, positions, tcoords, title,
                     model_dim=model_dim, **params)


_PARAMS_DOC = """    model_dim : str, optional
        With a single array: the name of its leading dimension that indexes the
        models; every ordered pair is compared and the output has dims
        ``model_a``, ``model_b`` instead (the diagonal compares a model with
        itself: Q = 0, n01 = n10 = 0, M = NaN; ``(a, b)`` and ``(b, a)`` are exact
        mirrors). Other leading dims (folds, runs) are kept.
    windows : int or sequence of int
        Sliding-window sizes (Gama et al. 2013, Algorithm 2; the last ``min(t, w)``
        evaluated instances).
    fading : float or sequence of float
        Fading factors ``alpha`` in ``(0, 1]`` (Algorithm 3 and section 4's faded Q).
    every : int
        A checkpoint every ``every`` instances, and always at the last.
    significance : float
        Level of the McNemar test: ``reject = |M| > chi2_1.isf(significance)``
        (6.635 for the default 0.01, the 99% threshold of the paper).
    lead_dims : str or sequence of str, optional
        Names of the leading dims of numpy inputs (default ``model``, ``fold``, ``run``)."""

_RETURNS_DOC = """    Returns
    -------
    xarray.Dataset
        On ``(*lead, ["model_a", "model_b",] "estimator", "time")`` (estimators
        "prequential", "window=<w>", "fading=<alpha>"; ``instance`` on ``time``):

        * ``q``: ``log(S_A / S_B)``, the accumulated (windowed, faded) losses; NaN
          when both are 0, ``-inf`` (``+inf``) when only A's (B's) is 0;
        * ``loss_a``, ``loss_b``: the mean losses ``S / N`` (NaN before the first
          evaluated instance) and ``n_instances`` (``N``);
        * for 0-1 losses: ``n00``, ``n01``, ``n10``, ``n11``, ``mcnemar`` (NaN when
          ``n01 + n10 = 0``), ``p_value`` (NaN then) and ``reject`` (False then).

        Positive ``q``/``mcnemar`` mean that A has the larger loss."""


def compare(y_true, y_pred_a, y_pred_b=None, *, model_dim=None, windows=(), fading=(), every=1, significance=0.01,
            classes=None, lead_dims=None) -> xr.Dataset:
    """Compare classifiers on the 0-1 loss over time: Q statistic and signed McNemar test.

    All estimators and (with ``model_dim``) all pairs of models in one pass.

    Parameters
    ----------
    y_true : array-like, shape ``(n,)``
        True labels (any hashable values; a missing label, ``None``/NaN/masked,
        marks an instance that is not evaluated and occupies no window slot).
    y_pred_a, y_pred_b : array-like or xarray.DataArray, shape ``(..., n)``
        Predictions of model A and model B (same leading dims). Without
        ``y_pred_b``, ``y_pred_a`` holds all models along ``model_dim``.
    classes : sequence, optional
        Class order for the encoding (labels outside it raise).
    <params>

    <returns>

    Notes
    -----
    Losses are ``l_t = [y_t != yhat_t]``. With ``S_A``, ``S_B`` the losses held by
    an estimator, ``Q = log(S_A / S_B)`` (Gama et al. 2013, section 4; with a
    fading factor both sums are faded: ``S_t = l_t + alpha S_{t-1}``); the signed
    McNemar statistic ``M = sign(n01 - n10) (n01 - n10)**2 / (n01 + n10)`` is
    chi-square(1) under H0 (section 4.1; Bifet et al. 2015, section 4). Windowed
    and faded McNemar statistics use the windowed / faded counts (section 4.2,
    Fig. 7); p-values of faded counts are descriptive (the chi-square law assumes
    counts). No continuity correction (as in the paper; scipy's
    ``mcnemar(correction=True)`` differs).

    See Also
    --------
    compare_losses : the same from per-instance losses (any real-valued loss).
    statsmodels.stats.contingency_tables.mcnemar : batch McNemar (unsigned).
    moa.evaluation.* : MOA has no streaming Q / McNemar evaluator; river neither.

    Examples
    --------
    >>> import numpy as np, streamtk.compare as sc
    >>> y = np.array([0, 1, 1, 0, 1, 0])
    >>> a = np.array([1, 1, 0, 0, 0, 0])   # wrong at 0, 2, 4
    >>> b = np.array([0, 1, 0, 0, 1, 1])   # wrong at 2, 5
    >>> ds = sc.compare(y, a, b, windows=3)
    >>> pre = ds.isel(time=-1).sel(estimator="prequential")
    >>> [float(pre[v]) for v in ("n00", "n01", "n10", "n11")]
    [2.0, 2.0, 1.0, 1.0]
    >>> round(float(pre.q), 4), round(float(pre.mcnemar), 4)   # log(3/2), (2-1)**2/3
    (0.4055, 0.3333)
    """
    yt_in = y_true
    tcoords = {}
    if isinstance(yt_in, xr.DataArray):
        if yt_in.ndim != 1:
            raise ValueError(f"y_true must be one-dimensional (n,), got dims {yt_in.dims}")
        tcoords = {k: v.variable for k, v in yt_in.coords.items() if v.dims == yt_in.dims}
        yt_in = yt_in.values
    preds, leads = [], []
    for nm, val in (("y_pred_a", y_pred_a), ("y_pred_b", y_pred_b)):
        if val is None:
            continue
        p2, ld, tc = split_leading(val, nm, lead_dims=lead_dims)
        preds.append(p2)
        leads.append(ld)
        tcoords.update(tc)
    n = np.shape(yt_in)[0] if np.ndim(yt_in) >= 1 else None
    if n is None:
        raise ValueError(f"y_true must be one-dimensional (n,), got a scalar {yt_in!r}")
    for nm, p2 in zip(("y_pred_a", "y_pred_b"), preds):
        if p2.shape[1] != n:
            raise ValueError(f"{nm} has {p2.shape[1]} instances along its last axis but y_true has {n}")
    sizes = [p.shape[0] for p in preds]
    _, yt, yp = encode_inputs(yt_in, np.concatenate(preds) if len(preds) == 2 else preds[0], classes=classes)
    present = yt >= 0
    if present.all():
        present = None
        loss = (yp != yt).astype(np.float64)
    else:
        loss = (yp[:, present] != yt[present]).astype(np.float64)
    losses = [loss[:sizes[0]], loss[sizes[0]:]] if len(preds) == 2 else [loss]
    return _compare(losses, leads, present, n, model_dim=model_dim, windows=windows, fading=fading, every=every,
                    significance=significance, binary=True, tcoords=tcoords,
                    title="streamtk comparison of two classifiers (Q statistic, signed McNemar)", loss_name="0-1")


def compare_losses(loss_a, loss_b=None, *, model_dim=None, windows=(), fading=(), every=1, significance=0.01,
                   lead_dims=None) -> xr.Dataset:
    """Compare learners from recorded per-instance losses: Q statistic (and McNemar for 0-1 losses).

    Parameters
    ----------
    loss_a, loss_b : array-like or xarray.DataArray, shape ``(..., n)``
        Finite per-instance losses of model A and model B (any real-valued loss:
        squared or absolute error, log-loss, costs; the Q statistic is meant for
        non-negative losses). Without ``loss_b``, ``loss_a`` holds all models along
        ``model_dim``. When every loss is 0 or 1 the McNemar variables are added.
    <params>

    <returns>

    Notes
    -----
    Sliding-window sums follow Algorithm 2 (add the new loss, subtract the one
    that leaves), which is exact for 0-1 losses but, for real-valued losses,
    keeps a rounding residue of about ``1e-16`` times the losses that went
    through the window: where a window's true loss sum is 0, ``q`` is then
    determined by that residue rather than NaN or infinite.

    See Also
    --------
    compare : the same from recorded class predictions.
    streamtk.losses.loss_curves : mean-loss curves (with ADWIN) of one loss stream.

    Examples
    --------
    Squared errors of two regressors (Gama et al. 2013, Fig. 4 plots such a Q):

    >>> import numpy as np, streamtk.compare as sc
    >>> ds = sc.compare_losses(np.array([1.0, 4.0, 0.0]), np.array([1.0, 1.0, 2.0]), fading=0.5)
    >>> ds.q.sel(estimator="fading=0.5").values.round(4).tolist()   # log(1/1), log(4.5/1.5), log(2.25/2.75)
    [0.0, 1.0986, -0.2007]
    """
    losses, leads, tcoords = [], [], {}
    for nm, val in (("loss_a", loss_a), ("loss_b", loss_b)):
        if val is None:
            continue
        x2, ld, tc = split_leading(val, nm, lead_dims=lead_dims)
        losses.append(as_float_array(x2, nm))
        leads.append(ld)
        tcoords.update(tc)
    n = losses[0].shape[1]
    if len(losses) == 2 and losses[1].shape[1] != n:
        raise ValueError(f"loss_b has {losses[1].shape[1]} instances along its last axis but loss_a has {n}")
    binary = all(bool(np.all((x == 0.0) | (x == 1.0))) for x in losses)
    return _compare(losses, leads, None, n, model_dim=model_dim, windows=windows, fading=fading, every=every,
                    significance=significance, binary=binary, tcoords=tcoords,
                    title="streamtk comparison of two learners on a given loss (Q statistic)",
                    loss_name="0-1 (given)" if binary else "given")


def _fill_doc(func):
    doc = func.__doc__.replace("    <params>\n", _PARAMS_DOC + "\n")
    func.__doc__ = doc.replace("    <returns>\n", _RETURNS_DOC + "\n")


_fill_doc(compare)
_fill_doc(compare_losses)
