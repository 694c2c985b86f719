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
:func:`streamtk._kernels.compare.pair_run`. :func:`compare` (class predictions)
and :func:`compare_losses` (any per-instance loss) take whole streams;
:class:`Comparator` takes them chunk by chunk with identical results.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from scipy import stats as _stats

from .._core.mechanisms import build_estimators
from .._core.validation import as_float_array, check_in_open_unit_interval, check_positive_int
from .._kernels import compare as _k
from .._labelled import LeadingDims, split_leading
from ..evaluation.engine import checkpoint_positions, encode_inputs
from ..evaluation.losses import _dataset, estimator_arrays

__all__ = ["compare", "compare_losses", "Comparator", "mcnemar_threshold"]

_REF_Q = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4; Gama 2014 tutorial (seed 002)"
_REF_M = "Gama, Sebastiao & Rodrigues 2013 (seed 004), sec. 4.1; Dietterich 1998; Bifet et al. 2015 (seed 000), sec. 4"
_ORIENTATION = (
    "A is the first model: Q > 0 and M > 0 mean A has the larger loss; n01 = A wrong and B right, "
    "n10 = B wrong and A right, n11 = both wrong, n00 = both right"
)
_SWAP = [_k.SB, _k.SA, _k.SV, _k.SU, _k.SN]


def mcnemar_threshold(significance: float = 0.01) -> float:
    """Critical value of ``|M|``: the ``1 - significance`` quantile of chi-square(1).

    >>> round(mcnemar_threshold(0.01), 3)
    6.635
    """
    significance = check_in_open_unit_interval(significance, "significance")
    return float(_stats.chi2.isf(significance, 1))


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
    "q": dict(
        long_name="Q statistic log(S_A / S_B)",
        units="1",
        formula="log(S_A / S_B) of the losses held by the estimator; fading: "
        "log((l_A + alpha S_A(t-1)) / (l_B + alpha S_B(t-1))); NaN when S_A = S_B = 0, "
        "-inf/+inf when only S_A/S_B is 0",
        reference=_REF_Q,
    ),
    "loss_a": dict(long_name="mean loss of model A", units="", formula="S_A / N", reference=_REF_Q),
    "loss_b": dict(long_name="mean loss of model B", units="", formula="S_B / N", reference=_REF_Q),
    "n_instances": dict(
        long_name="number of instances held by the estimator (fading: N_t)",
        units="1",
        formula="prequential t; window min(t, w); fading N_t = 1 + alpha N_(t-1)",
        reference=_REF_Q,
    ),
    "n00": dict(
        long_name="instances both models classify correctly",
        units="1",
        formula="sum [A right][B right]",
        reference=_REF_M,
    ),
    "n01": dict(
        long_name="instances A misclassifies and B classifies correctly",
        units="1",
        formula="sum [A wrong][B right]",
        reference=_REF_M,
    ),
    "n10": dict(
        long_name="instances B misclassifies and A classifies correctly",
        units="1",
        formula="sum [B wrong][A right]",
        reference=_REF_M,
    ),
    "n11": dict(
        long_name="instances both models misclassify", units="1", formula="sum [A wrong][B wrong]", reference=_REF_M
    ),
    "mcnemar": dict(
        long_name="signed McNemar statistic",
        units="1",
        formula="sign(n01 - n10) (n01 - n10)**2 / (n01 + n10); NaN when n01 + n10 = 0",
        reference=_REF_M,
    ),
    "p_value": dict(
        long_name="p-value of the McNemar test",
        units="1",
        formula="P(chi2_1 > |M|) = erfc(sqrt(|M| / 2)); NaN when M is NaN",
        reference=_REF_M,
    ),
    "reject": dict(
        long_name="McNemar test rejects equal error rates",
        units="1",
        formula="|M| > chi2_1 quantile at 1 - significance (6.635 at 0.01); False when M is NaN",
        reference=_REF_M,
    ),
}


class _Pairs:
    """Which rows of the stacked loss matrix are compared, and the layout of the result.

    Two-model mode (``model_dim=None``, two inputs with equal leading dims ``lead``):
    rows ``l`` and ``L + l`` form pair ``l``; result dims ``(*lead, ...)``. Model-dim
    mode (one input): pairs ``a <= b`` along ``model_dim`` within every combination
    of the other leading dims; the mirror ``(b, a)`` is filled by swapping A and B;
    result dims ``(*other, "model_a", "model_b", ...)``.
    """

    def __init__(self, leads: list, model_dim):
        if len(leads) == 2:
            if model_dim is not None:
                raise ValueError(
                    f"model_dim={model_dim!r} is for a single array holding all models; "
                    "pass either two models or one array with model_dim"
                )
            lead_a, lead_b = leads
            if (lead_a.names, lead_a.shape) != (lead_b.names, lead_b.shape):
                raise ValueError(
                    "the two models' leading dimensions do not agree: "
                    f"{dict(zip(lead_a.names, lead_a.shape))} vs {dict(zip(lead_b.names, lead_b.shape))}"
                )
            L = lead_a.size
            self.ia, self.ib = np.arange(L, dtype=np.int64), np.arange(L, 2 * L, dtype=np.int64)
            self.lead, self.pair_dims, self.pair_coords, self.model = lead_a, (), {}, None
            return
        (lead,) = leads
        if model_dim is None:
            raise ValueError("give the second model (y_pred_b / loss_b) or name the model dimension with model_dim=")
        if model_dim not in lead.names:
            raise ValueError(
                f"model_dim {model_dim!r} is not a leading dimension of the input; its leading dims are {lead.names}"
            )
        axis = lead.names.index(model_dim)
        M = lead.shape[axis]
        idx = np.moveaxis(np.arange(lead.size).reshape(lead.shape), axis, -1).reshape(-1, M)
        self.a, self.b = np.triu_indices(M)
        self.ia = idx[:, self.a].ravel().astype(np.int64)
        self.ib = idx[:, self.b].ravel().astype(np.int64)
        self.model = (idx.shape[0], M)
        self.lead = LeadingDims(
            lead.names[:axis] + lead.names[axis + 1 :],
            lead.shape[:axis] + lead.shape[axis + 1 :],
            {k: v for k, v in lead.coords.items() if model_dim not in v.dims},
        )
        labels = lead.coords[model_dim].values if model_dim in lead.coords else np.arange(M)
        self.pair_dims = ("model_a", "model_b")
        self.pair_coords = {"model_a": ("model_a", labels), "model_b": ("model_b", labels)}

    def assemble(self, raw: np.ndarray) -> np.ndarray:
        """Raw sums ``(P, E, C, 5)`` -> ``(*lead, *pair, E, C, 5)``."""
        if self.model is None:
            return self.lead.reshape(raw)
        R, M = self.model
        raw = raw.reshape((R, self.a.size) + raw.shape[1:])
        full = np.empty((R, M, M) + raw.shape[2:])
        full[:, self.a, self.b] = raw
        full[:, self.b, self.a] = raw[..., _SWAP]
        return full.reshape(self.lead.shape + (M, M) + raw.shape[2:])


class Comparator:
    """Chunked comparison with carried state: ``update()`` chunk by chunk, then ``result()``.

    ``Comparator(...).update(c1).update(c2).result()`` equals :func:`compare` (or,
    with :meth:`update_losses`, :func:`compare_losses`) on the concatenated
    stream exactly: same checkpoints, same numbers. Memory: the running sums
    plus the losses still inside the largest window. Parameters as in
    :func:`compare`; ``classes`` (optional) only validates the labels, since
    the 0-1 loss needs nothing but label equality.

    Examples
    --------
    >>> import numpy as np, streamtk.comparison.compare as sc
    >>> cmp = sc.Comparator(windows=2)
    >>> cmp.update([0, 1, 1], [1, 1, 0], [0, 1, 1]).update([0], [1], [0])
    Comparator(n_seen=4)
    >>> cmp.result().n01.sel(estimator="window=2").values.tolist()
    [1.0, 1.0, 1.0, 2.0]
    """

    def __init__(
        self, *, model_dim=None, windows=(), fading=(), every=1, significance=0.01, classes=None, lead_dims=None
    ):
        self._specs = build_estimators(windows, fading)
        self._arrays = estimator_arrays(self._specs)
        self._every = check_positive_int(every, "every")
        self._significance = significance
        self._threshold = mcnemar_threshold(significance)
        self._classes = None if classes is None else list(classes)
        self._model_dim = model_dim
        self._lead_dims = lead_dims
        self._history = max([s.param for s in self._specs if s.kind == "window"], default=0)
        self._n_seen = 0
        self._pairs = None
        self._leads = None
        self._state = None
        self._tail = None
        self._raw, self._positions, self._tvalues = [], [], {}
        self._tlast = {}
        self._binary = True
        self._loss_kind = None

    def __repr__(self) -> str:
        return f"Comparator(n_seen={self._n_seen})"

    @property
    def n_seen(self) -> int:
        """Number of instances processed so far."""
        return self._n_seen

    def update(self, y_true, y_pred_a, y_pred_b=None) -> Comparator:
        """Compare the next chunk of recorded predictions (0-1 loss); returns ``self``."""
        self._set_kind("0-1")
        yt_in, preds, leads, tcoords, n = _parse(
            y_true, (("y_pred_a", y_pred_a), ("y_pred_b", y_pred_b)), self._lead_dims
        )
        if n == 0:
            return self
        _, yt, yp = encode_inputs(yt_in, np.concatenate(preds) if len(preds) == 2 else preds[0], classes=self._classes)
        present = yt >= 0
        if present.all():
            present = None
            loss = (yp != yt).astype(np.float64)
        else:
            loss = (yp[:, present] != yt[present]).astype(np.float64)
        return self._feed(loss, leads, present, n, tcoords, binary=True)

    def update_losses(self, loss_a, loss_b=None) -> Comparator:
        """Compare the next chunk of per-instance losses (see :func:`compare_losses`); returns ``self``."""
        self._set_kind("given")
        losses, leads, tcoords = [], [], {}
        for nm, val in (("loss_a", loss_a), ("loss_b", loss_b)):
            if val is None:
                continue
            x2, ld, tc = split_leading(val, nm, lead_dims=self._lead_dims)
            x2 = as_float_array(x2, nm, allow_nan=True)
            if np.isinf(x2).any():
                where = tuple(int(i) for i in np.unravel_index(np.isinf(x2).argmax(), x2.shape))
                raise ValueError(f"{nm} contains an infinite value at index {where}")
            losses.append(x2)
            leads.append(ld)
            tcoords.update(tc)
        n = losses[0].shape[1]
        if len(losses) == 2 and losses[1].shape[1] != n:
            raise ValueError(f"loss_b has {losses[1].shape[1]} instances along its last axis but loss_a has {n}")
        loss = np.concatenate(losses) if len(losses) == 2 else losses[0]
        present = None
        missing = np.isnan(loss)
        if missing.any():
            if not (missing == missing[:1]).all():
                raise ValueError(
                    "the losses have NaN (not evaluated) at different positions in different series; "
                    "missing instances must be the same in every series"
                )
            present = ~missing[0]
            loss = loss[:, present]
        binary = bool(np.all((loss == 0.0) | (loss == 1.0)))
        return self._feed(loss, leads, present, n, tcoords, binary=binary)

    def _set_kind(self, kind):
        if self._loss_kind is not None and self._loss_kind != kind:
            raise ValueError("a Comparator is fed either predictions (update) or losses (update_losses), not both")
        self._loss_kind = kind

    def _feed(self, loss, leads, present, n, tcoords, *, binary):
        """Run the pair kernel on the next chunk of (present-instance) losses."""
        if self._pairs is None:
            self._pairs = _Pairs(leads, self._model_dim)
            self._leads = [(ld.names, ld.shape) for ld in leads]
            self._state = np.zeros((self._pairs.ia.size, len(self._specs), 5))
            self._tail = np.zeros((loss.shape[0], 0))
        elif [(ld.names, ld.shape) for ld in leads] != self._leads:
            raise ValueError(
                f"leading dims changed between chunks: {self._leads} then {[(ld.names, ld.shape) for ld in leads]}"
            )
        if n == 0:
            return self
        pos = checkpoint_positions(self._n_seen, self._n_seen + n, self._every) - self._n_seen
        ck = pos.copy() if present is None else np.cumsum(present, dtype=np.int64)[pos] - 1
        h = self._tail.shape[1]
        arr = np.ascontiguousarray(np.concatenate([self._tail, loss], axis=1) if h else loss, dtype=np.float64)
        kinds, wsize, alphas = self._arrays
        out = np.empty((self._pairs.ia.size, len(self._specs), pos.size, 5))
        _k.pair_run(arr, self._pairs.ia, self._pairs.ib, kinds, wsize, alphas, h, ck + h, self._state, out)
        self._raw.append(out)
        self._positions.append(pos + self._n_seen)
        for name, var in tcoords.items():
            if name != "instance":
                vals = np.asarray(var.values)
                self._tvalues.setdefault(name, []).append(vals[pos])
                self._tlast[name] = vals[-1:]
        keep = min(self._history, arr.shape[1])
        self._tail = arr[:, arr.shape[1] - keep :].copy()
        self._n_seen += n
        self._binary = self._binary and binary
        return self

    def result(self) -> xr.Dataset:
        """The comparison of everything seen so far (the state is not changed)."""
        if self._n_seen == 0:
            raise ValueError("nothing to compare yet: call update() with at least one instance first")
        raw = self._raw[0] if len(self._raw) == 1 else np.concatenate(self._raw, axis=2)
        positions = np.concatenate(self._positions)
        tvalues = {k: np.concatenate(v) for k, v in self._tvalues.items()}
        if positions.size == 0 or positions[-1] != self._n_seen - 1:  # the last instance is always a checkpoint
            kinds, wsize, _ = self._arrays
            last = self._state.copy()
            last[..., _k.SN] = np.where(kinds == _k.KIND_WINDOW, np.minimum(last[..., _k.SN], wsize), last[..., _k.SN])
            raw = np.concatenate([raw, last[:, :, None]], axis=2)
            positions = np.append(positions, self._n_seen - 1)
            tvalues = {k: np.concatenate([v, self._tlast[k]]) for k, v in tvalues.items()}
        stats = _finalise(self._pairs.assemble(raw), self._threshold, self._binary)
        p = self._pairs
        dims = p.lead.names + p.pair_dims + ("estimator", "time")
        data = {k: xr.Variable(dims, v, attrs=_ATTRS[k]) for k, v in stats.items()}
        params = dict(
            every=self._every,
            significance=self._significance,
            mcnemar_threshold=self._threshold,
            orientation=_ORIENTATION,
        )
        if self._model_dim is not None:
            params["model_dim"] = self._model_dim
        if self._loss_kind == "0-1":
            title, loss = "streamtk comparison of two classifiers (Q statistic, signed McNemar)", "0-1"
        else:
            title = "streamtk comparison of two learners on a given loss (Q statistic)"
            loss = "0-1 (given)" if self._binary else "given"
        ds = _dataset(data, p.lead, self._specs, positions, {}, title, loss=loss, **params)
        return ds.assign_coords(p.pair_coords).assign_coords({k: ("time", v) for k, v in tvalues.items()})


def _parse(y_true, named_preds, lead_dims):
    """``y_true`` (numpy), the predictions as ``(L, n)`` arrays, their leads, time coords, ``n``."""
    tcoords = {}
    if isinstance(y_true, xr.DataArray):
        if y_true.ndim != 1:
            raise ValueError(f"y_true must be one-dimensional (n,), got dims {y_true.dims}")
        tcoords = {k: v.variable for k, v in y_true.coords.items() if v.dims == y_true.dims}
        y_true = y_true.values
    preds, leads = [], []
    for nm, val in named_preds:
        if val is None:
            continue
        p2, ld, tc = split_leading(val, nm, lead_dims=lead_dims)
        preds.append(p2)
        leads.append(ld)
        tcoords.update(tc)
    n = np.shape(y_true)[0] if np.ndim(y_true) >= 1 else None
    if n is None:
        raise ValueError(f"y_true must be one-dimensional (n,), got a scalar {y_true!r}")
    for (nm, _), p2 in zip(named_preds, preds):
        if p2.shape[1] != n:
            raise ValueError(f"{nm} has {p2.shape[1]} instances along its last axis but y_true has {n}")
    return y_true, preds, leads, tcoords, n


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


def compare(
    y_true,
    y_pred_a,
    y_pred_b=None,
    *,
    model_dim=None,
    windows=(),
    fading=(),
    every=1,
    significance=0.01,
    classes=None,
    lead_dims=None,
) -> xr.Dataset:
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
    >>> import numpy as np, streamtk.comparison.compare as sc
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
    cmp = Comparator(
        model_dim=model_dim,
        windows=windows,
        fading=fading,
        every=every,
        significance=significance,
        classes=classes,
        lead_dims=lead_dims,
    )
    return cmp.update(y_true, y_pred_a, y_pred_b).result()


def compare_losses(
    loss_a, loss_b=None, *, model_dim=None, windows=(), fading=(), every=1, significance=0.01, lead_dims=None
) -> xr.Dataset:
    """Compare learners from recorded per-instance losses: Q statistic (and McNemar for 0-1 losses).

    Parameters
    ----------
    loss_a, loss_b : array-like or xarray.DataArray, shape ``(..., n)``
        Per-instance losses of model A and model B (any finite real-valued loss:
        squared or absolute error, log-loss, costs; the Q statistic is meant for
        non-negative losses; :func:`streamtk.evaluation.losses.regression_losses` computes
        them for regressors). NaN marks an instance that was not evaluated (it
        must then be NaN in every series; it is skipped and occupies no window
        slot). Without ``loss_b``, ``loss_a`` holds all models along
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
    streamtk.evaluation.losses.loss_curves : mean-loss curves (with ADWIN) of one loss stream.

    Examples
    --------
    Squared errors of two regressors (Gama et al. 2013, Fig. 4 plots such a Q):

    >>> import numpy as np, streamtk.comparison.compare as sc
    >>> from streamtk.evaluation.losses import regression_losses
    >>> y = np.array([0.0, 0.0, 0.0])
    >>> la = regression_losses(y, [1.0, 2.0, 0.0])   # squared errors 1, 4, 0
    >>> lb = regression_losses(y, [1.0, -1.0, 1.5])  # 1, 1, 2.25
    >>> ds = sc.compare_losses(la, lb, fading=0.5)
    >>> ds.q.sel(estimator="fading=0.5").values.round(4).tolist()   # log(1/1), log(4.5/1.5), log(2.25/3)
    [0.0, 1.0986, -0.2877]
    """
    cmp = Comparator(
        model_dim=model_dim, windows=windows, fading=fading, every=every, significance=significance, lead_dims=lead_dims
    )
    return cmp.update_losses(loss_a, loss_b).result()


def _fill_doc(func):
    doc = func.__doc__.replace("    <params>\n", _PARAMS_DOC + "\n")
    func.__doc__ = doc.replace("    <returns>\n", _RETURNS_DOC + "\n")


_fill_doc(compare)
_fill_doc(compare_losses)
