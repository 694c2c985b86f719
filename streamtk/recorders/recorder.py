"""Test-then-train recording: :func:`record` runs learners over a stream and returns a streamtk log."""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping

import numpy as np
import xarray as xr

from ._learners import ClassIndex, as_learner
from ._log import build_log, safe_attrs
from ._run import Run
from ._sink import MemorySink, ZarrSink
from ._streams import as_source

__all__ = ["record"]

_PROTOCOL = (
    "test-then-train (prequential): for each instance every model predicts first (y_pred, y_score), then "
    "learns from the instance if it has a label; time_s is the time of that prediction and learning"
)


def _names(models) -> dict:
    if isinstance(models, Mapping):
        out = {str(k): v for k, v in models.items()}
        if not out:
            raise ValueError("models is empty: give at least one learner")
        return out
    items = list(models) if isinstance(models, (list, tuple)) else [models]
    if not items:
        raise ValueError("models is empty: give at least one learner")
    out = {}
    for m in items:
        base = type(m).__name__
        name, i = base, 2
        while name in out:
            name, i = f"{base}_{i}", i + 1
        out[name] = m
    return out


def _check_int(value, name, minimum=1, allow_none=True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _converters(source, learners, names_of):
    """Per learner, a function native x -> the x it takes (``None``: the native x itself)."""
    native = source.native
    feats = names_of

    def to_array(x, y, lab):
        if native == "dict":
            return np.array([x.get(f, np.nan) for f in feats()], dtype=np.float64)
        if native == "instance":
            return x.x
        return x

    def to_dict(x, y, lab):
        arr = x.x if native == "instance" else x
        return {f: v for f, v in zip(feats(), arr.tolist()) if v == v}  # NaN (missing) left out, as river expects

    def to_instance(learner):
        from capymoa.core import Instance, LabeledInstance

        schema = learner.schema
        index = {str(c): i for i, c in enumerate(schema.get_label_values())}
        if native == "instance" and _same_schema(schema, source.schema):
            return None

        def conv(x, y, lab):
            arr = to_array(x, y, lab)
            if lab is None:
                return Instance.from_array(schema, arr)
            return LabeledInstance.from_array(schema, arr, index[str(lab)])

        return conv

    out = []
    for learner in learners:
        form = learner.form
        if form == "native" or form == native:
            out.append(None)
        elif form == "array":
            out.append(to_array)
        elif form == "dict":
            out.append(to_dict)
        else:
            out.append(to_instance(learner))
    return out


def _same_schema(a, b) -> bool:
    if a is None or b is None:
        return False
    if a is b:
        return True
    try:
        return bool(a.get_moa_header().equalHeaders(b.get_moa_header()))
    except Exception:  # noqa: BLE001
        return False


def _progress(progress, total, desc):
    show = sys.stderr.isatty() if progress is None else bool(progress)
    if not show:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        if progress:
            raise ImportError("progress=True needs tqdm: pip install tqdm") from None
        return None
    return tqdm(total=total, desc=desc, unit="inst", unit_scale=True, file=sys.stderr, leave=False)


def record(
    models,
    stream,
    *,
    max_instances=None,
    classes=None,
    target=None,
    scores=True,
    memory_every=10_000,
    progress=None,
    out=None,
    overwrite=False,
    chunk=100_000,
    attrs=None,
):
    """Run ``models`` test-then-train over ``stream`` and record every instance as a streamtk log.

    For each instance, every model first predicts (the label and its class scores), then learns
    from the instance (if it has a label) -- the prequential protocol of Gama et al. 2013
    (seed ``004_*``, section 3, Algorithm 1) that river's ``progressive_val_score`` and
    capymoa's ``prequential_evaluation`` follow. The log holds what those loops only summarise,
    so that :func:`streamtk.evaluate` can compute every curve afterwards.

    Parameters
    ----------
    models : learner, sequence of learners or mapping name -> learner
        river classifiers (``predict_proba_one``/``learn_one``), capymoa classifiers (MOA
        learners are driven through their Java object, as capymoa's own loops do),
        scikit-learn estimators with ``partial_fit`` (``classes`` must be known), or any object
        with ``predict(x)`` and ``learn(x, y)`` (``predict_proba(x)`` optional: a mapping
        label -> score, or a sequence in class order). Names default to the class names.
        Every model sees the same instances in the same order.
    stream : capymoa Stream, path, streamtk dataset, ``(X, y)`` or iterable of ``(x, y)``
        A capymoa stream (restarted first); an ARFF file (``.arff``/``.arff.gz``, read block by
        block; the class is the last attribute unless ``target`` names it); a
        :class:`streamtk.datasets.Stream` (``streamtk.datasets.load(...)``); numpy or pandas
        arrays ``(X, y)``; or any iterable of ``(x, y)`` pairs such as a river dataset
        (``x`` a dict or a numeric sequence). Each model gets ``x`` in its own library's form
        (a dict for river -- features with a missing value left out --, a float row for
        scikit-learn, a capymoa instance built with the model's schema for capymoa); other
        objects get the stream's own ``x``.
    max_instances : int, optional
        Stop after this many instances (default: the whole stream).
    classes : sequence, optional
        Class order (code 0 first) of the log and of its score columns. Default: the order
        the stream declares (capymoa schema, ARFF header, dataset), every label of ``y`` sorted
        for arrays, else the labels seen, sorted. A label outside a given or declared order
        is an error naming it.
    target : str, optional
        The class attribute of an ARFF file (default: the last one, as MOA).
    scores : bool
        Record class scores (``y_score``): the normalised probabilities of each model.
    memory_every : int or None
        Measure each model's size every this many instances and at the last one (NaN
        between measurements); ``None``: never. river models report river's own measure
        (``_raw_memory_usage``), MOA models the size of their Java serialisation, other
        models the size of their pickle.
    progress : bool, optional
        Show a progress bar (tqdm) on stderr; default: when stderr is a terminal.
    out : str or os.PathLike, optional
        A zarr store (``.zarr``) to append the log to every ``chunk`` instances, for runs
        longer than memory. Until the run ends the store's attrs say ``recording =
        "incomplete"`` and how many instances (``n_instances``) it holds; every array has
        exactly that many. Labels are stored as text ('' missing) or float64 (NaN missing);
        :func:`streamtk.io.open_dataset` reads them back as labels. Needs ``classes`` when
        the stream does not declare them.
    overwrite : bool
        Replace an existing ``out`` (the old store stays until the new one is complete).
    chunk : int
        Instances per buffer (and per append to ``out``).
    attrs : dict, optional
        Extra attributes of the log (e.g. a description of the experiment).

    Returns
    -------
    xarray.Dataset
        A log (see :mod:`streamtk.io`): ``y_true`` ``(time,)``, ``y_pred`` ``(model, time)``
        (missing where a model made no prediction, e.g. river's and MOA's first instance),
        ``y_score`` ``(model, time, class)`` (NaN rows where a model gave no scores),
        ``time_s`` and ``memory_bytes`` ``(model, time)``; the class order as the ``class``
        coordinate and as ``attrs["classes"]`` of ``y_true`` and ``y_pred``; attrs naming the
        stream, each model and its library version, and the protocol. With ``out``, the store
        opened lazily.

    Notes
    -----
    ``y_pred`` is each library's own prediction: river's ``predict_one`` (the first class of
    highest probability in the order of the probability dict), MOA's first class of the highest
    vote, scikit-learn's first class of the highest probability. A missing prediction stays
    missing: river skips it in its metrics, MOA's evaluators count it as class index 0.

    See Also
    --------
    river.evaluate.progressive_val_score, capymoa.evaluation.prequential_evaluation :
        the loops this one records; ``benchmarks/bench_recorders.py`` measures the overhead.
    streamtk.io.from_river, streamtk.io.from_capymoa : logs from those loops' own outputs.

    Examples
    --------
    >>> import numpy as np
    >>> from streamtk.recorders import record
    >>> class Last:  # predicts the previous label
    ...     prev = None
    ...     def predict(self, x):
    ...         return self.prev
    ...     def learn(self, x, y):
    ...         self.prev = y
    >>> log = record({"last": Last()}, (np.zeros((4, 1)), ["a", "b", "b", "a"]), memory_every=None)
    >>> log.y_pred.values.tolist()
    [[None, 'a', 'b', 'b']]
    """
    named = _names(models)
    max_instances = _check_int(max_instances, "max_instances")
    memory_every = _check_int(memory_every, "memory_every")
    chunk = _check_int(chunk, "chunk", allow_none=False)
    source = as_source(stream, target=target)
    if classes is not None:
        if isinstance(classes, (str, bytes)) or not hasattr(classes, "__iter__"):
            raise TypeError(f"classes must be a sequence of labels, got {classes!r}")
        classes = list(np.asarray(classes).tolist()) if hasattr(classes, "dtype") else list(classes)
    index = ClassIndex(classes if classes is not None else source.classes)
    learners = [as_learner(m, index) for m in named.values()]
    want_scores = bool(scores) and any(L.has_scores for L in learners)
    runner = _java_runner(source, learners, index, want_scores)
    blocks = source.blocks(max_instances) if runner is None else iter(())
    first = next(blocks, None) if source.kind == "iterable" else None  # iterables say their form of x with it
    if out is not None and not index.fixed:
        raise ValueError(
            "out= needs the class order before the first write, and this stream does not declare it: pass classes=[...]"
        )
    feats = source.feature_names
    if source.native == "dict" and feats is None and first is not None:
        feats = list(first[0][0])
    convs = _converters(source, learners, lambda: feats)
    meta = {
        "title": "streamtk log",
        "source_format": "streamtk recorder",
        "stream": source.description,
        "protocol": _PROTOCOL,
        **{f"model_{name}": L.describe() for name, L in zip(named, learners)},
        "loop": "MOA learners in a Java loop (streamtk.recorders._moa_loop)" if runner is not None else "Python loop",
        **{k: v for k, v in (attrs or {}).items()},
    }
    sink = (
        ZarrSink(out, models=list(named), classes=index.labels, attrs=safe_attrs(meta), overwrite=overwrite)
        if out is not None
        else MemorySink()
    )
    total = source.n if max_instances is None else (min(source.n, max_instances) if source.n else max_instances)
    bar = _progress(progress, total, "record")
    run = Run(learners, index, sink, chunk, want_scores, memory_every, bar)
    t_run = time.perf_counter()
    try:
        if runner is not None:
            run.java(runner, max_instances)
        else:
            run.python(_chain(first, blocks) if first is not None else blocks, convs)
        run.finish()
    finally:
        if bar is not None:
            bar.close()
    n_seen = run.n_seen
    seconds = time.perf_counter() - t_run
    if isinstance(sink, ZarrSink):
        if n_seen == 0:
            raise ValueError(f"stream {source.description} yielded no instance; nothing was written to {out}")
        path = sink.close()
        return xr.open_zarr(path, consolidated=True)
    return build_log(sink, index, list(named), meta, want_scores, seconds, n_seen)


def _java_runner(source, learners, index, want_scores):
    """The Java loop when every model is a MOA learner on the capymoa stream's own schema, else None
    (without scores the loop writes none: 0 score columns)."""
    from ._learners import MoaLearner

    if source.kind != "capymoa" or not all(isinstance(L, MoaLearner) and L.identity for L in learners):
        return None
    if not all(_same_schema(L.schema, source.schema) for L in learners):
        return None
    try:
        moa_stream = source.stream.get_moa_stream()
    except Exception:  # noqa: BLE001
        return None
    from jpype import JClass

    if moa_stream is None or not isinstance(moa_stream, JClass("moa.streams.InstanceStream")):
        return None
    from ._moa_loop import JavaBlockRunner, java_loop

    cls = java_loop()
    if cls is None:
        return None
    source.stream.restart()
    return JavaBlockRunner(cls, moa_stream, [L.ml for L in learners], len(index) if want_scores else 0, 4096)


def _chain(first, rest):
    yield first
    yield from rest
