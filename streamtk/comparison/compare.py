"""Comparing stream learners over time: Q statistic and signed McNemar test.

Gama, Sebastiao & Rodrigues 2013 (``seeds/004_*.txt``, section 4) and Gama's 2014 tutorial
slides (``seeds/002_*.txt``, "Comparing Performance" and "Signed McNemar Test") compare two
learners A and B on the same stream continuously:

* the **Q statistic** of the accumulated losses ``Q_i(A, B) = log(S_i^A / S_i^B)``, for any
  loss, under any forgetting mechanism (the faded form is
  ``log((L_i(A) + a S_(i-1)^A) / (L_i(B) + a S_(i-1)^B))``);
* for the 0-1 loss, the **signed McNemar statistic** ``M = sign(n01 - n10) (n01 - n10)**2 /
  (n01 + n10)`` (chi-square with one degree of freedom under "A and B have the same error") and
  the contingency counts, under the same estimators.

Orientation: A is the first model. ``Q > 0`` and ``M > 0`` mean that A has the larger loss.
``n01`` counts the instances A gets wrong and B gets right, ``n10`` the converse, ``n11`` both
wrong, ``n00`` both right (faded counts for a fading factor).

Every estimator and every pair of models is computed in one pass of the scalar-sums kernel
(:mod:`streamtk.evaluation.sums`); formulas: :mod:`streamtk._core.metrics.comparison`. An
``adwin=`` estimator of a pair uses the window of an ADWIN run on the difference of the two
losses, ``l_A - l_B`` (it shrinks when the learners' relative performance changes).
:func:`compare` (class predictions) and :func:`compare_losses` (any per-instance loss) take
whole streams; :class:`Comparator` takes them chunk by chunk with identical results.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from scipy import stats as _stats

from .._core.adwin import check_adwin_options
from .._core.intervals import check_interval
from .._core.intervals.options import band_parameters
from .._core.labels import encode_labels
from .._core.mechanisms import build_estimators, estimator_coords, forgetting_parameters, resolve_every
from .._core.metrics import REGISTRY, family
from .._core.validation import as_float_array, check_in_open_unit_interval, check_positive_int
from .._labelled import (
    align_like,
    base_attrs,
    labelled_inputs,
    reorder_like,
    split_leading,
    time_coords,
)
from ..evaluation.sums import SumsEngine
from .bands import ComparisonBands, difference_blocks
from .pairs import Pairs as _Pairs

__all__ = ["compare", "compare_losses", "Comparator", "mcnemar_threshold"]

_ORIENTATION = (
    "A is the first model: Q > 0 and M > 0 mean A has the larger loss; n01 = A wrong and B right, "
    "n10 = B wrong and A right, n11 = both wrong, n00 = both right"
)


def mcnemar_threshold(alpha: float = 0.05) -> float:
    """Critical value of ``|M|``: the ``1 - alpha`` quantile of chi-square(1).

    >>> round(mcnemar_threshold(0.05), 3), round(mcnemar_threshold(0.01), 3)
    (3.841, 6.635)
    """
    alpha = check_in_open_unit_interval(alpha, "alpha")
    return float(_stats.chi2.isf(alpha, 1))


class Comparator:
    """Chunked comparison with carried state: ``update()`` chunk by chunk, then ``result()``.

    ``Comparator(...).update(c1).update(c2).result()`` equals :func:`compare` (or, with
    :meth:`update_losses`, :func:`compare_losses`) on the concatenated stream exactly. ``every``
    must be given, or ``n_instances`` (the stream length) for the default spacing. Parameters as
    in :func:`compare`; ``classes`` (optional) only validates the labels.

    Examples
    --------
    >>> import streamtk
    >>> cmp = streamtk.Comparator(windows=2, every=1)
    >>> cmp.update([0, 1, 1], [1, 1, 0], [0, 1, 1]).update([0], [1], [0])
    Comparator(n_seen=4)
    >>> cmp.result().n01.sel(estimator="window=2").values.tolist()
    [1.0, 1.0, 1.0, 2.0]
    """

    @forgetting_parameters()
    @band_parameters
    def __init__(
        self,
        *,
        every=None,
        n_instances=None,
        alpha=0.05,
        classes=None,
        lead_dims=None,
        adwin_options=None,
        interval=None,
        interval_method=None,
        replicates=None,
        block_length=None,
        seed=None,
        **forgetting,
    ):
        self._specs = build_estimators(**forgetting)
        n = None if n_instances is None else check_positive_int(n_instances, "n_instances")
        self._every = resolve_every(every, n)
        self._spec = check_interval(interval, interval_method, replicates, block_length, seed, n=n)
        self._bands = ComparisonBands(self._spec, self._specs)
        self._one_pass = False  # compare() sets it: the whole stream is the first chunk (block_length="auto")
        self._alpha = alpha
        self._threshold = mcnemar_threshold(alpha)
        self._classes = None if classes is None else list(classes)
        self._lead_dims = lead_dims
        self._adwin_options = check_adwin_options(adwin_options)
        self._engine = None
        self._pairs = None
        self._leads = None
        self._tvalues, self._tlast = {}, {}
        self._binary = True
        self._loss_kind = None
        self._check_labels = False  # compare() sets it: a whole stream is judged, a chunk is too short

    def __repr__(self) -> str:
        return f"Comparator(n_seen={self.n_seen})"

    @property
    def n_seen(self) -> int:
        """Number of instances processed so far."""
        return 0 if self._engine is None else self._engine.n_seen

    def update(self, y_true, y_pred_a, y_pred_b=None) -> Comparator:
        """Compare the next chunk of recorded predictions (0-1 loss); returns ``self``."""
        self._set_kind("0-1")
        a = labelled_inputs(y_true, y_pred_a, lead_dims=self._lead_dims, classes=self._classes, pred_name="y_pred_a")
        preds, leads = [a.y_pred], [a.lead]
        if y_pred_b is not None:
            b = labelled_inputs(
                y_true, y_pred_b, lead_dims=self._lead_dims, classes=self._classes, pred_name="y_pred_b"
            )
            if isinstance(y_pred_b, xr.DataArray) and isinstance(y_pred_a, xr.DataArray):
                preds.append(
                    align_like(y_pred_b, a.lead, None, a.n, "y_pred_b", ref="y_pred_a").reshape(a.y_pred.shape)
                )
                leads.append(a.lead)  # B's rows are now in A's order
            else:
                preds.append(b.y_pred)
                leads.append(b.lead)
        if a.n == 0:
            return self
        # compact codes: int8 labels that equal their codes are not copied
        _, (yt, *yps) = encode_labels(
            a.y_true,
            *preds,
            classes=self._classes,
            compact=True,
            names=("y_true", "y_pred_a", "y_pred_b"),
            check_overlap=self._check_labels and self._classes is None and a.classes is None,
        )
        present = None
        if min(int(c.min()) for c in [yt, *yps]) < 0:  # a missing label or prediction
            present = (yt >= 0) & np.logical_and.reduce([(c >= 0).all(axis=0) for c in yps])
        loss = np.empty((sum(c.shape[0] for c in yps), a.n))
        row = 0
        for c in yps:
            np.not_equal(c, yt, out=loss[row : row + c.shape[0]], casting="unsafe")  # the 0-1 losses
            row += c.shape[0]
        return self._feed(loss, leads, present, a.n, a.time_coords, binary=True)

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
        missing = np.isnan(loss)
        present = None
        if missing.any():
            if not (missing == missing[:1]).all():
                raise ValueError(
                    "the losses have NaN (not evaluated) at different positions in different series; "
                    "missing instances must be the same in every series"
                )
            present = ~missing[0]
            loss = np.where(missing, 0.0, loss)
        binary = bool(np.all((loss == 0.0) | (loss == 1.0)))
        return self._feed(loss, leads, present, n, tcoords, binary=binary, names=("loss_a", "loss_b"))

    def _set_kind(self, kind):
        if self._loss_kind is not None and self._loss_kind != kind:
            raise ValueError("a Comparator is fed either predictions (update) or losses (update_losses), not both")
        self._loss_kind = kind

    def _feed(self, loss, leads, present, n, tcoords, *, binary, names=("y_pred_a", "y_pred_b")):
        """Run the sums kernel on the next chunk of losses."""
        if self._pairs is None:
            self._pairs = _Pairs(leads)
            self._leads = list(leads)
            metrics = self._bands.finalised(family("comparison"))
            outputs = {m.name: (self._pairs.n_rows, np.dtype(m.dtype)) for m in metrics}
            outputs["n_instances"] = (self._pairs.n_rows, np.dtype(np.float64))
            jobs = self._pairs.jobs(metrics)
            self._engine = SumsEngine(
                self._specs,
                self._every,
                self._adwin_options,
                jobs=jobs,
                outputs=outputs,
                threshold=self._threshold,
                z=np.nan if self._spec is None else self._spec.z,
            )
            spec = self._spec
            auto = spec is not None and spec.method == "block_bootstrap" and spec.block_length is None
            if auto and not self._one_pass:
                raise ValueError(
                    "Comparator: interval_method='block_bootstrap' needs block_length= (an int): 'auto' chooses it "
                    "from the whole loss stream, which a chunked comparison does not see in advance"
                )
            blocks = difference_blocks(loss, self._pairs.groups, present) if auto else None
            self._bands.setup(self._every, self._adwin_options, jobs, self._pairs.n_rows, self._threshold, blocks)
            self._positions = []
        elif [(ld.names, ld.shape) for ld in leads] != [(ld.names, ld.shape) for ld in self._leads]:
            raise ValueError(
                f"leading dims changed between chunks: {[(ld.names, ld.shape) for ld in self._leads]} "
                f"then {[(ld.names, ld.shape) for ld in leads]}"
            )
        else:  # series matched to the first chunk's by their labels (a model order may change)
            order, start, moved = [], 0, False
            for first, ld, nm in zip(self._leads, leads, names):
                rows = reorder_like(first, ld, name=nm)
                moved = moved or rows is not None
                order.append(start + (np.arange(ld.size) if rows is None else rows))
                start += ld.size
            if moved:
                loss = loss[np.concatenate(order)]
        if n == 0:
            return self
        start = self._engine.n_seen
        self._bands.check_binary(binary)
        pos = self._engine.update(loss, self._pairs.groups, present, binary=binary)
        self._bands.update(loss, self._pairs.groups, present)
        self._positions.append(pos)
        for name, var in tcoords.items():
            if name != "instance":
                self._tvalues.setdefault(name, []).append(np.asarray(var.values)[pos - start])
        self._binary = self._binary and binary
        return self

    def result(self) -> xr.Dataset:
        """The comparison of everything seen so far (the state is not changed)."""
        if self.n_seen == 0:
            raise ValueError("nothing to compare yet: call update() with at least one instance first")
        positions, values = self._engine.collect()
        every = self._every
        rows = np.searchsorted(np.concatenate(self._positions), positions)
        tvalues = {k: np.concatenate(v)[rows] for k, v in self._tvalues.items()}
        p = self._pairs
        dims = p.lead.names + p.pair_dims + ("estimator", "time")
        names = [m for m in family("comparison") if self._binary or m.needs != "binary_losses"]
        data = {m.name: xr.Variable(dims, p.shape(values[m.name]), attrs=m.attrs()) for m in names}
        data["n_instances"] = xr.Variable(dims, p.shape(values["n_instances"]), attrs=REGISTRY["n_instances"].attrs())
        data.update(self._bands.variables(positions, values, p.shape, dims, positions + 1))
        coords = {**estimator_coords(self._specs), **time_coords(positions + 1), **p.lead.coords, **p.pair_coords}
        coords.update({k: ("time", v) for k, v in tvalues.items()})
        if self._loss_kind == "0-1":
            title, loss = "streamtk comparison of two classifiers (Q statistic, signed McNemar)", "0-1"
        else:
            title = "streamtk comparison of two learners on a given loss (Q statistic)"
            loss = "0-1 (given)" if self._binary else "given"
        attrs = base_attrs(
            title,
            loss=loss,
            every=every,
            alpha=self._alpha,
            mcnemar_threshold=self._threshold,
            orientation=_ORIENTATION,
            estimators=[s.label for s in self._specs],
            n_instances=self.n_seen,
            **({} if self._spec is None else self._spec.attrs()),
        )
        return xr.Dataset(data, coords=coords, attrs=attrs)


_PARAMS_DOC = """    {forgetting}
    every : int, optional
        A checkpoint every ``every`` instances, and always at the last (default: see
        :func:`streamtk._core.mechanisms.default_every`).
    alpha : float
        Significance level of the McNemar test: ``reject = |M| > chi2_1.isf(alpha)`` (3.841 at the
        default 0.05; Gama et al. 2013 use 0.01, threshold 6.635).
    lead_dims : str or sequence of str, optional
        Names of the leading dims of numpy inputs (default ``model``, ``fold``, ``run``). With a
        single input, its ``model`` dim holds the models: every ordered pair is compared and the
        output has dims ``model_a``, ``model_b`` (the diagonal compares a model with itself:
        Q = 0, n01 = n10 = 0, M = NaN; ``(a, b)`` and ``(b, a)`` are exact mirrors).
    adwin_options : dict, optional
        ADWIN parameters of ``adwin=`` estimators (see :func:`streamtk.evaluate`).
    <bands>"""

_RETURNS_DOC = """    Returns
    -------
    xarray.Dataset
        On ``(*lead, ["model_a", "model_b",] "estimator", "time")`` (``instance`` on ``time``):
        ``q`` (NaN when both losses are 0, -inf / +inf when only A's / B's is), ``loss_a``,
        ``loss_b``, ``n_instances``, and for 0-1 losses ``n00``, ``n01``, ``n10``, ``n11``,
        ``mcnemar`` (NaN when ``n01 + n10 = 0``), ``p_value`` and ``reject``, ``error_difference`` (``loss_a -
        loss_b``). Positive ``q``, ``mcnemar`` and ``error_difference`` mean that A has the larger loss. With
        ``interval=``: the bands ``<metric>_lower`` / ``<metric>_upper`` of ``loss_a``, ``loss_b``,
        ``error_difference`` (and ``q`` with the bootstrap); with ``interval_method="sequence"`` also
        ``a_better`` / ``b_better`` (the confidence sequence of ``error_difference`` excludes 0) and
        ``first_a_better`` / ``first_b_better`` (the instance of the first checkpoint where it does, NaN if none),
        valid under continuous monitoring (:mod:`streamtk.comparison.bands`)."""


def compare(
    y_true,
    y_pred_a,
    y_pred_b=None,
    *,
    every=None,
    alpha=0.05,
    classes=None,
    lead_dims=None,
    adwin_options=None,
    interval=None,
    interval_method=None,
    replicates=None,
    block_length=None,
    seed=None,
    **forgetting,
) -> xr.Dataset:
    """Compare classifiers on the 0-1 loss over time: Q statistic and signed McNemar test.

    Parameters
    ----------
    y_true : array-like ``(n,)`` or DataArray
        True labels (a missing label marks an instance that is not evaluated and occupies no
        window slot; so does a missing prediction of either model).
    y_pred_a, y_pred_b : array-like or DataArray ``(..., n)``
        Predictions of model A and model B (same leading dims, matched by label). Without
        ``y_pred_b``, ``y_pred_a`` holds all models along its ``model`` dim.
    classes : sequence, optional
        Class order for the encoding (labels outside it raise). Without it, predictions whose
        labels barely overlap those of ``y_true`` give a
        :class:`~streamtk._core.labels.LabelMismatchWarning` (see :func:`streamtk.evaluate`).
    <params>

    <returns>

    Notes
    -----
    Losses are ``l_t = [y_t != yhat_t]``. Windowed and faded McNemar statistics use the windowed
    / faded counts (section 4.2, Fig. 7); p-values of faded counts are descriptive. No continuity
    correction (as in the paper; scipy's ``mcnemar(correction=True)`` differs).

    See Also
    --------
    compare_losses : the same from per-instance losses (any real-valued loss).
    statsmodels.stats.contingency_tables.mcnemar : batch McNemar (unsigned).

    Examples
    --------
    >>> import numpy as np, streamtk
    >>> y = np.array([0, 1, 1, 0, 1, 0])
    >>> a = np.array([1, 1, 0, 0, 0, 0])   # wrong at 0, 2, 4
    >>> b = np.array([0, 1, 0, 0, 1, 1])   # wrong at 2, 5
    >>> ds = streamtk.compare(y, a, b, windows=3)
    >>> pre = ds.isel(time=-1).sel(estimator="prequential")
    >>> [float(pre[v]) for v in ("n00", "n01", "n10", "n11")]
    [2.0, 2.0, 1.0, 1.0]
    >>> round(float(pre.q), 4), round(float(pre.mcnemar), 4)   # log(3/2), (2-1)**2/3
    (0.4055, 0.3333)
    """
    n = np.shape(y_true.y_true if isinstance(y_true, xr.Dataset) else y_true)[0]
    cmp = Comparator(
        every=every,
        n_instances=max(n, 1),
        alpha=alpha,
        classes=classes,
        lead_dims=lead_dims,
        adwin_options=adwin_options,
        interval=interval,
        interval_method=interval_method,
        replicates=replicates,
        block_length=block_length,
        seed=seed,
        **forgetting,
    )
    cmp._check_labels = True
    cmp._one_pass = True
    return cmp.update(y_true, y_pred_a, y_pred_b).result()


def compare_losses(
    loss_a,
    loss_b=None,
    *,
    every=None,
    alpha=0.05,
    lead_dims=None,
    adwin_options=None,
    interval=None,
    interval_method=None,
    replicates=None,
    block_length=None,
    seed=None,
    **forgetting,
) -> xr.Dataset:
    """Compare learners from recorded per-instance losses: Q statistic (and McNemar for 0-1 losses).

    Parameters
    ----------
    loss_a, loss_b : array-like or DataArray ``(..., n)``
        Per-instance losses of model A and model B (any finite real-valued loss). NaN marks an
        instance that was not evaluated (it must then be NaN in every series). Without ``loss_b``,
        ``loss_a`` holds all models along its ``model`` dim. When every loss is 0 or 1 the McNemar
        variables are added.
    <params>

    <returns>

    Notes
    -----
    A window's loss sum is exactly 0 when the window holds only zero losses (the sums count
    their non-zero members), so ``q`` is NaN or infinite exactly where the paper's is.

    See Also
    --------
    compare : the same from recorded class predictions.
    streamtk.loss_curves : mean-loss curves of one loss stream.

    Examples
    --------
    >>> import numpy as np, streamtk
    >>> la = np.array([1.0, 4.0, 0.0])    # squared errors of A
    >>> lb = np.array([1.0, 1.0, 2.25])   # and of B
    >>> ds = streamtk.compare_losses(la, lb, fading=0.5)
    >>> ds.q.sel(estimator="fading=0.5").values.round(4).tolist()   # log(1/1), log(4.5/1.5), log(2.25/3)
    [0.0, 1.0986, -0.2877]
    """
    n = np.shape(loss_a)[-1]
    cmp = Comparator(
        every=every,
        n_instances=max(n, 1),
        alpha=alpha,
        lead_dims=lead_dims,
        adwin_options=adwin_options,
        interval=interval,
        interval_method=interval_method,
        replicates=replicates,
        block_length=block_length,
        seed=seed,
        **forgetting,
    )
    cmp._one_pass = True
    return cmp.update_losses(loss_a, loss_b).result()


def _fill_doc(func):
    doc = func.__doc__.replace("    <params>\n", _PARAMS_DOC.replace("    <bands>", "    {bands}") + "\n")
    func.__doc__ = doc.replace("    <returns>\n", _RETURNS_DOC + "\n")


_fill_doc(compare)
_fill_doc(compare_losses)
compare = forgetting_parameters()(band_parameters(compare))
compare_losses = forgetting_parameters()(band_parameters(compare_losses))
