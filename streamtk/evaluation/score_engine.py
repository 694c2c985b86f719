"""numpy layer joining the score-based metrics to :func:`streamtk.evaluate` and :class:`streamtk.Evaluator`.

* Per-instance score losses (``log_loss``, ``brier``) are extra quantities of the confusion
  engine's one pass (:func:`streamtk.evaluation.scoring_rules.score_losses`), so they are averaged
  under every estimator exactly like the empirical risk.
* The AUC family (``auc``, ``auc_u1``, ``auc_u0``, ``auc_z``, ``auc_macro``) runs on
  :class:`streamtk.evaluation.auc_engine.AucEngine` with the evaluation's plan: the same
  estimators, checkpoints and members (label and prediction present, weight > 0; under MOA's
  convention the prediction is not read) as the confusion metrics, and ADWIN windows from the
  same ADWIN on the model's 0/1 loss (one window for every class: one-vs-rest AUC per class and
  the macro average for class scores). :func:`auc_arrays` evaluates a stream in memory in one
  chunk; :class:`ChunkedAUC` chunk by chunk with carried state.
"""

from __future__ import annotations

import numpy as np

from .._core.metrics import REGISTRY
from .._core.validation import as_float_array
from .auc_engine import AucEngine

__all__ = [
    "check_scores",
    "check_scores_evaluated",
    "moa_no_votes",
    "auc_arrays",
    "auc_variables",
    "wants_scores",
    "ChunkedAUC",
    "auc_bands",
    "engine_options",
]


def check_scores(y_score, L: int, n: int, k: int) -> tuple[str, np.ndarray]:
    """``(mode, scores)``: ``"binary"`` with ``(L, n)`` positive-class scores or ``"multi"`` with ``(L, n, k)``.

    NaN is accepted here; :func:`check_scores_evaluated` refuses it where an instance is evaluated.
    """
    s = as_float_array(y_score, "y_score", allow_nan=True)
    if s.shape[-1] == n and s.size == L * n or (s.ndim >= 1 and s.shape[-1] == n and s.size == n):
        s2 = np.broadcast_to(s.reshape(-1, n), (L, n)) if s.size == n else s.reshape(L, n)
        return "binary", np.ascontiguousarray(s2)
    if s.ndim >= 2 and s.shape[-2:] == (n, k) and s.size in (L * n * k, n * k):
        s3 = np.broadcast_to(s.reshape(-1, n, k), (L, n, k)) if s.size == n * k else s.reshape(L, n, k)
        return "multi", np.ascontiguousarray(s3)
    raise ValueError(
        f"y_score must have shape (..., n) with the positive-class score or (..., n, k) with one column per class "
        f"(n = {n}, k = {k}, leading series = {L}); got shape {s.shape}"
    )


def wants_scores(metrics) -> bool:
    """Whether ``metrics`` (None: every applicable one) asks for a metric of class scores."""
    if metrics is None:
        return True
    names = (metrics,) if isinstance(metrics, str) else metrics
    return any(REGISTRY[m].needs in ("scores", "multiscores") for m in names if m in REGISTRY)


def moa_no_votes(s: np.ndarray, yp: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Scores with MOA's reading of "no vote": ``(for log loss and Brier, for the AUC family)``.

    A MOA learner gives no vote before it has learnt (an empty or all-zero vote array; a log
    records a missing prediction and NaN scores there). MOA's evaluators still count the instance,
    the prediction as class index 0 (``Utils.maxIndex``), and read its class distribution as

    * ``1/numClasses`` for every class in ``BasicClassificationPerformanceEvaluator``'s log loss
      (``getNormalizedProbability``: no positive vote); streamtk's Brier score reads it alike;
    * a positive-class score of 0 in ``WindowAUCImbalancedPerformanceEvaluator`` and
      ``BasicAUCImbalancedPerformanceEvaluator`` (``v1 / (v0 + v1)``, NaN or an empty array -> 0;
      :func:`streamtk.evaluation.scores.auc_curves` reads MOA votes alike).

    Only the scores of a series without a prediction whose scores are all NaN are replaced; any
    other NaN is left to be refused (:func:`check_scores_evaluated`).
    """
    nan = np.isnan(s) if s.ndim == 2 else np.isnan(s).all(axis=-1)
    fill = nan & (np.asarray(yp) < 0)
    if not fill.any():
        return s, s
    losses, auc = s.copy(), s.copy()
    losses[fill] = 1.0 / k
    auc[fill] = 0.0
    return losses, auc


def check_scores_evaluated(s, ytrue, ypred, weights, moa: bool, start: int = 0) -> None:
    """Refuse a NaN score at an instance that is evaluated.

    An instance is evaluated for a series when its label is present, its weight is > 0 and (under
    streamtk's convention) the series made a prediction; under MOA's convention a missing prediction
    is evaluated (as class index 0), so it needs scores too (:func:`moa_no_votes` first gives the
    rows without a prediction and without scores MOA's reading of no vote). Elsewhere a NaN score (e.g. river's
    first instance, which has no prediction and no probabilities) is never read.
    """
    nan = np.isnan(s) if s.ndim == 2 else np.isnan(s).any(axis=-1)
    if not nan.any():
        return
    evaluated = np.broadcast_to(np.asarray(ytrue)[None, :] >= 0, nan.shape)
    if weights is not None:
        evaluated = evaluated & (np.asarray(weights) > 0)
    if not moa:
        evaluated = evaluated & (np.asarray(ypred) >= 0)
    bad = np.argwhere(nan & evaluated)
    if bad.size:
        l, t = (int(i) for i in bad[0])
        raise ValueError(
            f"y_score contains NaN at instance {start + t} (0-based) of series {l}, which is evaluated (its label "
            "is present, its weight > 0"
            + ("" if moa else " and it has a prediction")
            + "): give its scores, or mark the instance as not evaluated"
        )


def _members_by(engine, ypred):
    """The predictions that decide the members: MOA's AUC evaluator reads the scores only (a missing
    prediction is evaluated there, as class index 0 by the confusion metrics), so under MOA's
    convention none."""
    return None if engine.moa else ypred


def engine_options(plan) -> dict:
    """The :class:`AucEngine` options of an evaluation plan (but its metrics)."""
    return dict(
        specs=plan.specs,
        every=plan.every,
        n_classes=plan.k,
        mode=plan.scores,
        moa=plan.moa,
        pos=plan.pos,
        adwin_options=plan.adwin_options,
    )


def _engine(plan) -> AucEngine:
    z = plan.interval.z if plan.interval is not None else float("nan")
    return AucEngine(metrics=list(plan.auc_metrics) + list(plan.auc_bounds), z=z, **engine_options(plan))


def auc_bands(plan, blocks=None):
    """The bootstrap bands of the plan's banded AUC metrics (:class:`streamtk.evaluation.auc_bands.AucBands`)."""
    from .auc_bands import AucBands

    banded = [m for m in plan.banded if m.table == "auc"] if plan.interval is not None else []
    return AucBands(plan.interval, banded, blocks, **engine_options(plan))


class ChunkedAUC:
    """The AUC family of an evaluation fed chunk by chunk (the state is carried; picklable).

    ``update(ytrue (T,), ypred (L, T), weights (L, T) or None, scores (L, T) or (L, T, k))`` with the
    engine's codes, for each chunk in order, then :meth:`collect` or :meth:`drain` the checkpoint
    rows ``(positions, {name: (L, E, C[, k])})``. ``bound_code`` is accepted for the callers'
    signature; the ADWIN bound is ``plan.adwin_options["bound"]``. Memory and exactness: see
    :mod:`streamtk.evaluation.auc_engine`.
    """

    def __init__(self, plan, bound_code=None):
        self.engine = _engine(plan)

    def update(self, ytrue, ypred, weights, s):
        """Process the next chunk (codes as the confusion engine gets them, scores from :func:`check_scores`)."""
        self.engine.update(ytrue, s, weights, _members_by(self.engine, ypred))

    @property
    def n_seen(self) -> int:
        return self.engine.n_seen

    def collect(self):
        """``(positions, arrays)``: every checkpoint row plus the last instance."""
        return self.engine.collect()

    def drain(self, *, final: bool):
        """The rows produced since the last drain (the last instance's only when ``final``); then dropped."""
        return self.engine.drain(final=final)


def auc_arrays(plan, ytrue, ypred, weights, s, mode, positions, bound_code=None) -> dict:
    """The AUC variables of ``plan.auc_metrics`` for a whole stream: name -> ``(L, C, E[, k])``.

    ``positions``: the confusion engine's checkpoints (the same rule; checked).
    """
    engine = _engine(plan)
    engine.update(ytrue, s, weights, _members_by(engine, ypred), last=True)
    pos, arrays = engine.collect()
    if not np.array_equal(pos, positions):  # pragma: no cover - one checkpoint rule for every family
        raise AssertionError("AUC checkpoints differ from the engine's")
    return {name: np.swapaxes(arr, 1, 2) for name, arr in arrays.items()}


def auc_variables(plan, lead, arrays: dict) -> dict:
    """Labelled variables (``xarray.Variable``) of the AUC arrays ``name -> (L, E, C[, k])`` (registry attrs)."""
    import xarray as xr

    from .._core.metrics import REGISTRY

    out = {}
    for name, arr in arrays.items():
        a = lead.reshape(arr)
        dims = lead.names + ("estimator", "time") + (("class",) if a.ndim > len(lead.shape) + 2 else ())
        out[name] = xr.Variable(dims, a, attrs=REGISTRY[name].attrs())
    return out
