"""Recording regressors and interval predictors: :func:`record_regression`.

The prequential loop of :func:`streamtk.recorders.record` for real-valued targets: every model predicts each
instance, then learns from it; the log (:func:`streamtk.io.make_regression_log`) holds every prediction, and the
bounds of interval predictors, for :func:`streamtk.regression_curves` and :func:`streamtk.interval_curves`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping

import numpy as np

from ..io.regression_log import make_regression_log

__all__ = ["record_regression"]


def _is_capymoa(model) -> bool:
    return type(model).__module__.startswith("capymoa")


class _Learner:
    """One model: ``test(x, inst) -> (prediction, lower, upper)`` (NaN where there is none), ``learn(x, inst, y)``."""

    def __init__(self, model):
        self.model = model
        self.capymoa = _is_capymoa(model)
        names = [c.__name__ for c in type(model).__mro__]
        #: river's conformal wrappers (``river.conf``: ``predict_one(x, with_interval=True)`` gives an Interval)
        self.conformal = type(model).__module__.startswith("river.conf")
        self.interval = self.conformal or (self.capymoa and any("PredictionInterval" in n for n in names))
        if not self.capymoa and not (hasattr(model, "predict_one") and hasattr(model, "learn_one")):
            raise TypeError(
                f"models: {type(model).__name__} is neither a river regressor (predict_one / learn_one) nor a capymoa "
                "regressor or interval predictor (predict / train)"
            )

    def test(self, x, inst):
        if self.capymoa:
            out = self.model.predict(inst)
            if out is None:
                return math.nan, math.nan, math.nan
            if np.ndim(out) == 1 and len(out) == 3:  # capymoa's interval predictors: [lower, prediction, upper]
                self.interval = True
                return float(out[1]), float(out[0]), float(out[2])
            return float(out), math.nan, math.nan
        out = self.model.predict_one(x)
        point = math.nan if out is None else float(out)
        if self.conformal:
            iv = self.model.predict_one(x, with_interval=True)
            return point, float(iv.lower), float(iv.upper)
        return point, math.nan, math.nan

    def learn(self, x, inst, y):
        if self.capymoa:
            self.model.train(inst)
        else:
            self.model.learn_one(x, y)


def _instances(stream, capymoa, max_instances):
    """``(x dict, capymoa instance or None, y)`` per instance of ``stream``."""
    if hasattr(stream, "next_instance") and hasattr(stream, "get_schema"):
        if not stream.get_schema().is_regression():
            raise ValueError("stream is a capymoa classification stream; record_regression records regressors")
        stream.restart()
        i = 0
        while stream.has_more_instances() and (max_instances is None or i < max_instances):
            inst = stream.next_instance()
            yield dict(enumerate(np.asarray(inst.x, dtype=np.float64).tolist())), inst, float(inst.y_value)
            i += 1
        return
    if isinstance(stream, tuple) and len(stream) == 2:
        X = np.asarray(stream[0], dtype=np.float64)
        y = np.asarray(stream[1], dtype=np.float64)
        if X.ndim != 2 or y.shape != (X.shape[0],):
            raise ValueError(f"stream (X, y) must be shaped (n, d) and (n,), got {X.shape} and {y.shape}")
        if capymoa:
            from capymoa.stream import NumpyStream

            yield from _instances(NumpyStream(X, y, target_type="numeric"), capymoa, max_instances)
            return
        stop = X.shape[0] if max_instances is None else min(X.shape[0], max_instances)
        for i in range(stop):
            yield dict(enumerate(X[i].tolist())), None, float(y[i])
        return
    if capymoa:
        raise TypeError("capymoa models need a capymoa stream or numpy arrays (X, y), not an iterable of (x, y) pairs")
    for i, (x, y) in enumerate(stream):
        if max_instances is not None and i >= max_instances:
            return
        yield (x if isinstance(x, Mapping) else dict(enumerate(x))), None, float("nan" if y is None else y)


def record_regression(models, stream, *, max_instances=None, attrs=None):
    """Run regressors or interval predictors test-then-train over ``stream`` and record every instance as a log.

    For each instance every model first predicts, then learns from the instance (if it has a target): the
    prequential protocol of :func:`streamtk.recorders.record` (Gama et al. 2013, seed ``004_*``, section 3).

    Parameters
    ----------
    models : learner, sequence of learners or mapping name -> learner
        river regressors (``predict_one`` / ``learn_one``; river's conformal wrappers, ``river.conf`` such as
        ``RegressionJackknife``, are interval predictors: ``predict_one(x, with_interval=True)``), capymoa
        regressors and capymoa interval
        predictors (``capymoa.uncertainty``: ``predict`` returns ``[lower, prediction, upper]``). Names default to
        the class names. Every model sees the same instances in the same order.
    stream : capymoa regression Stream, ``(X, y)`` arrays, or iterable of ``(x, y)`` pairs
        A capymoa stream (restarted first), numpy arrays (given to capymoa models as a capymoa ``NumpyStream``),
        or a river dataset (river models only). A target of None (or NaN) is recorded as NaN: not learnt, not
        evaluated.
    max_instances : int, optional
        Stop after this many instances.
    attrs : dict, optional
        Extra attributes of the log.

    Returns
    -------
    xarray.Dataset
        :func:`streamtk.io.make_regression_log`: ``y_true``, ``y_pred`` on ``(model, time)``, and ``lower`` /
        ``upper`` when every model is an interval predictor (task ``"intervals"``), ``time_s`` the seconds each
        model spent per instance. A model that made no prediction has NaN there (give it ``weights=0`` before
        evaluating).

    See Also
    --------
    streamtk.recorders.record : classifiers. capymoa.evaluation.prequential_evaluation,
    river.evaluate.progressive_val_score.

    Examples
    --------
    >>> import numpy as np
    >>> from river import linear_model
    >>> from streamtk.recorders import record_regression
    >>> X = np.arange(20.0).reshape(10, 2); y = X.sum(axis=1)
    >>> log = record_regression({"lr": linear_model.LinearRegression()}, (X, y))
    >>> log.y_pred.dims, log.attrs["task"]
    (('model', 'time'), 'regression')
    """
    if isinstance(models, Mapping):
        names, objs = [str(k) for k in models], list(models.values())
    else:
        objs = list(models) if isinstance(models, (list, tuple)) else [models]
        names = [type(m).__name__ for m in objs]
        if len(set(names)) != len(names):
            names = [f"{n}_{i}" for i, n in enumerate(names)]
    if not objs:
        raise ValueError("models must hold at least one model, got none")
    if max_instances is not None and (int(max_instances) != max_instances or max_instances < 1):
        raise ValueError(f"max_instances must be a positive integer, got {max_instances!r}")
    learners = [_Learner(m) for m in objs]
    ys, preds, lows, ups, secs = [], [], [], [], []
    for x, inst, y in _instances(stream, any(lr.capymoa for lr in learners), max_instances):
        ys.append(y)
        row_p, row_l, row_u, row_s = [], [], [], []
        for lr in learners:
            t0 = time.perf_counter()
            p, lo, up = lr.test(x, inst)
            if not math.isnan(y):
                lr.learn(x, inst, y)
            row_s.append(time.perf_counter() - t0)
            row_p.append(p)
            row_l.append(lo)
            row_u.append(up)
        preds.append(row_p)
        lows.append(row_l)
        ups.append(row_u)
        secs.append(row_s)
    if not ys:
        raise ValueError("stream has no instances")
    kinds = {lr.interval for lr in learners}
    if len(kinds) > 1:
        which = [n for n, lr in zip(names, learners) if lr.interval]
        raise ValueError(f"models mixes interval predictors {which} with point regressors: record them separately")
    interval = kinds.pop()
    tr = lambda rows: np.asarray(rows, dtype=np.float64).T  # noqa: E731  (n, m) -> (m, n)
    log = make_regression_log(
        np.asarray(ys),
        tr(preds),
        lower=tr(lows) if interval else None,
        upper=tr(ups) if interval else None,
        models=names,
        attrs={"recorder": "streamtk.recorders.record_regression", **(attrs or {})},
    )
    log["time_s"] = (("model", "time"), tr(secs), {"long_name": "processing time", "units": "s"})
    return log
