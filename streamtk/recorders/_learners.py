"""The learners a recorder drives: one adapter per library, all with ``test`` / ``learn`` / ``memory``.

* river (``predict_proba_one`` / ``learn_one``): the prediction is river's own ``predict_one``
  (the first class of highest probability in the dict's order, or the model's override);
* capymoa (``predict_proba`` / ``train``): MOA learners are called through their Java object
  (``getVotesForInstance`` / ``trainOnInstance``), as capymoa's own loops do; the prediction is
  the first class of the highest vote (MOA's ``Utils.maxIndex``), the scores the votes divided
  by their sum (capymoa's ``predict_proba``); no vote (an empty or all-zero vote array) is a
  missing prediction;
* scikit-learn (``partial_fit``): ``partial_fit(x[None], [y], classes=...)`` on the first
  labelled instance; no prediction before it;
* anything with ``predict(x)`` and ``learn(x, y)`` (and optionally ``predict_proba(x)`` giving a
  mapping or a sequence in class order).

``test(x)`` returns ``(code, scores)``: the predicted class code (-1: no prediction) and the class
scores (``None``; a mapping label -> score; or an array in class-code order, possibly shorter than
the number of classes); ``learn(x, y, code)`` trains on a labelled instance.
"""

from __future__ import annotations

import math
import pickle

import numpy as np

__all__ = ["as_learner", "ClassIndex"]


class ClassIndex:
    """Label -> code (code 0 first). Fixed (labels outside it are refused) or growing as labels appear.

    Labels compare by value, as in Python (``0 == False``, ``1 == 1.0``): a model's ``False`` and
    the stream's ``0`` are one class (river's binary models predict ``True``/``False`` on 0/1
    labels, and river's own metrics count ``False == 0`` as a hit). The stream's labels decide
    how the class is written in the log: a class first met as a prediction (``what`` other than
    ``"the label"``) takes the stream's label when that arrives; booleans still beside integers at
    the end are written as integers (:attr:`log_labels`). Text met beside numbers is refused at
    once, naming the label (the log could not hold both), rather than after the whole run.
    """

    def __init__(self, classes=None):
        self.fixed = classes is not None
        self.labels = [] if classes is None else list(classes)
        self.codes = {c: i for i, c in enumerate(self.labels)}
        if len(self.codes) != len(self.labels):
            raise ValueError(f"classes must be distinct labels, got {self.labels!r}")
        self._provisional: dict = {}  # code -> True for a class met only as a prediction so far

    def __len__(self):
        return len(self.labels)

    def code(self, label, what="a label"):
        c = self.codes.get(label)
        if c is not None:
            if self._provisional and what == "the label" and c in self._provisional:
                self._take_stream_label(c, label.item() if isinstance(label, np.generic) else label)
            return c
        if isinstance(label, np.generic):
            return self.code(label.item(), what)
        if self.fixed:
            raise ValueError(f"{what} {label!r} is not in classes {self.labels!r}")
        self._check_kind(label, what)
        c = len(self.labels)
        self.labels.append(label)
        self.codes[label] = c
        if what != "the label":
            self._provisional[c] = True
        return c

    def _take_stream_label(self, c: int, label) -> None:
        old = self.labels[c]
        del self._provisional[c]
        if type(old) is not type(label):  # e.g. a predicted False, now the stream's 0
            del self.codes[old]
            self.labels[c] = label
            self.codes[label] = c

    def _check_kind(self, label, what) -> None:
        from streamtk._core.label_values import label_kind

        group = {"bool": "number", "int": "number", "float": "number"}.get(label_kind(label), label_kind(label))
        for other in self.labels:
            kind = label_kind(other)
            if {"bool": "number", "int": "number", "float": "number"}.get(kind, kind) != group and (
                "text" in (group, kind) or "bytes" in (group, kind)
            ):
                raise TypeError(
                    f"{what} {label!r} ({type(label).__name__}) is not of the kind of the classes met so far "
                    f"{self.labels[:10]!r} ({type(other).__name__}): a log holds labels of one kind (numbers or "
                    "text); make the model predict the stream's labels, or convert the labels first"
                )

    @property
    def log_labels(self) -> list:
        """:attr:`labels` as the log writes them: booleans as integers when integers are among them."""
        kinds = {type(v) for v in self.labels}
        if bool in kinds and any(isinstance(v, int) and not isinstance(v, bool) for v in self.labels):
            return [int(v) if isinstance(v, bool) else v for v in self.labels]
        return self.labels


class _Base:
    library = "python"
    form = "native"
    has_scores = True

    def __init__(self, model, classes: ClassIndex):
        self.model = model
        self.classes = classes

    def memory(self) -> float:
        """Model size in bytes: the length of its pickle (NaN if it cannot be pickled)."""
        try:
            return float(len(pickle.dumps(self.model, protocol=pickle.HIGHEST_PROTOCOL)))
        except Exception:  # noqa: BLE001 - an unpicklable model has no measured size
            return math.nan

    def describe(self) -> str:
        return f"{type(self.model).__module__}.{type(self.model).__name__}"


class RiverLearner(_Base):
    library = "river"
    form = "dict"

    def __init__(self, model, classes):
        super().__init__(model, classes)
        from river import base, compose

        last = model
        while isinstance(last, compose.Pipeline):
            last = list(last.steps.values())[-1]
        self.has_scores = hasattr(model, "predict_proba_one")
        # river's predict_one is the argmax of predict_proba_one unless a model overrides it
        self._own_predict = not self.has_scores or type(last).predict_one is not base.Classifier.predict_one

    def test(self, x):
        m = self.model
        proba = None
        if self.has_scores:
            proba = m.predict_proba_one(x) or None
            if proba is not None and not self._own_predict:
                best = max(proba, key=proba.get)
                code = self.classes.codes.get(best)
                return (self.classes.code(best, "a predicted class") if code is None else code), proba
        pred = m.predict_one(x) if self._own_predict else None
        return (-1 if pred is None else self.classes.code(pred, "a predicted class")), proba

    def learn(self, x, y, code):
        self.model.learn_one(x, y)

    def memory(self):
        """river's own measure (``model._raw_memory_usage``, as ``progressive_val_score(show_memory=True)``)."""
        try:
            return float(self.model._raw_memory_usage)
        except Exception:  # noqa: BLE001
            return super().memory()

    def describe(self):
        import river

        return f"river {river.__version__} {self.model!r}".replace("\n", " ")


class MoaLearner(_Base):
    """A capymoa wrapper of a MOA learner, driven through its Java object."""

    library = "capymoa"
    form = "instance"

    def __init__(self, model, classes):
        super().__init__(model, classes)
        self.ml = model.moa_learner
        self.schema = model.schema
        labels = [str(v) for v in self.schema.get_label_values()]
        # schema index -> our code, our code -> schema index (labels matched as text)
        self.to_code = np.array([classes.code(_match(lab, classes), "a class of the learner's schema")
                                 for lab in labels], dtype=np.int64)  # fmt: skip
        self.identity = bool(np.array_equal(self.to_code, np.arange(len(labels))))

    def test(self, inst):
        votes = np.asarray(self.ml.getVotesForInstance(inst.java_instance))
        total = votes.sum() if votes.size else 0.0
        if votes.size == 0 or not (total > 0.0 and math.isfinite(total)):
            return -1, None
        if self.identity:
            return int(np.argmax(votes)), votes / total
        scores = np.zeros(len(self.classes))
        scores[self.to_code[: votes.size]] = votes / total
        return int(self.to_code[int(np.argmax(votes))]), scores

    def learn(self, inst, y, code):
        self.ml.trainOnInstance(inst.java_instance)

    def memory(self):
        """Size of the MOA model serialised by Java (MOA's own SizeOf needs a JVM agent capymoa does not load)."""
        try:
            from jpype import JClass

            bos = JClass("java.io.ByteArrayOutputStream")()
            oos = JClass("java.io.ObjectOutputStream")(bos)
            oos.writeObject(self.ml)
            oos.close()
            return float(bos.size())
        except Exception:  # noqa: BLE001
            return math.nan

    def describe(self):
        import capymoa

        cli = ""
        try:
            cli = str(self.ml.getCLICreationString(self.ml.getClass().getSuperclass()))
        except Exception:  # noqa: BLE001
            cli = str(self.model)
        return f"MOA via capymoa {capymoa.__version__}: {cli or self.model}"


class CapymoaLearner(_Base):
    """A capymoa classifier that is not a MOA wrapper (``predict_proba`` / ``predict`` / ``train``)."""

    library = "capymoa"
    form = "instance"

    def __init__(self, model, classes):
        super().__init__(model, classes)
        self.schema = model.schema
        labels = [str(v) for v in self.schema.get_label_values()]
        self.to_code = np.array([classes.code(_match(lab, classes), "a class of the learner's schema")
                                 for lab in labels], dtype=np.int64)  # fmt: skip

    def test(self, inst):
        proba = self.model.predict_proba(inst)
        scores = None
        if proba is not None:
            p = np.asarray(proba, dtype=np.float64)
            scores = np.zeros(len(self.classes))
            scores[self.to_code[: p.size]] = p
        pred = self.model.predict(inst)
        return (-1 if pred is None else int(self.to_code[int(pred)])), scores

    def learn(self, inst, y, code):
        self.model.train(inst)

    def describe(self):
        import capymoa

        return f"capymoa {capymoa.__version__} {self.model}"


class SklearnLearner(_Base):
    library = "scikit-learn"
    form = "array"

    def __init__(self, model, classes):
        super().__init__(model, classes)
        if not classes.fixed:
            raise ValueError(
                f"a scikit-learn model ({type(model).__name__}) needs every class at its first partial_fit: pass "
                "classes=[...] to record (the stream does not declare them)"
            )
        self.fitted = False
        self.has_scores = hasattr(model, "predict_proba")
        self.cols = None

    def test(self, x):
        if not self.fitted:
            return -1, None
        X = x.reshape(1, -1)
        if self.has_scores:
            p = self.model.predict_proba(X)[0]
            scores = np.zeros(len(self.classes))
            scores[self.cols] = p
            return int(self.cols[int(np.argmax(p))]), scores
        return self.classes.code(self.model.predict(X)[0], "a predicted class"), None

    def learn(self, x, y, code):
        X = x.reshape(1, -1)
        if not self.fitted:
            self.model.partial_fit(X, [y], classes=np.asarray(self.classes.labels))
            self.fitted = True
            self.cols = np.array([self.classes.code(c, "a class of the model") for c in self.model.classes_.tolist()])
        else:
            self.model.partial_fit(X, [y])

    def describe(self):
        import sklearn

        return f"scikit-learn {sklearn.__version__} {self.model!r}".replace("\n", " ")


class GenericLearner(_Base):
    """Any object with ``predict(x)`` and ``learn(x, y)`` (``predict_proba(x)`` optional)."""

    def __init__(self, model, classes):
        super().__init__(model, classes)
        self.has_scores = hasattr(model, "predict_proba")

    def test(self, x):
        m = self.model
        scores = None
        if self.has_scores:
            proba = m.predict_proba(x)
            if proba is None or (hasattr(proba, "__len__") and len(proba) == 0):
                scores = None
            elif hasattr(proba, "items"):
                scores = dict(proba)
            else:
                scores = np.asarray(proba, dtype=np.float64).reshape(-1)
                if scores.size > len(self.classes):
                    raise ValueError(f"predict_proba of {type(m).__name__} returned {scores.size} scores for the "
                                     f"{len(self.classes)} classes {self.classes.labels!r}")  # fmt: skip
        pred = m.predict(x)
        if pred is None or (isinstance(pred, float) and math.isnan(pred)):
            return -1, scores
        return self.classes.code(pred, "a predicted class"), scores

    def learn(self, x, y, code):
        self.model.learn(x, y)


def _match(label_text, classes: ClassIndex):
    """The label of ``classes`` whose text is ``label_text`` (capymoa schemas hold text labels)."""
    for lab in classes.labels:
        if str(lab) == label_text:
            return lab
    return label_text


def _is_river(model) -> bool:
    mod = type(model).__module__
    return mod.startswith("river.") and hasattr(model, "learn_one")


def as_learner(model, classes: ClassIndex):
    """The adapter for ``model``; refuses an object that is none of the four kinds, naming what it lacks."""
    if _is_river(model) or (hasattr(model, "learn_one") and hasattr(model, "predict_one")):
        return RiverLearner(model, classes)
    if getattr(model, "moa_learner", None) is not None and hasattr(model, "schema"):
        return MoaLearner(model, classes)
    if type(model).__module__.startswith("capymoa.") and hasattr(model, "train"):
        return CapymoaLearner(model, classes)
    if hasattr(model, "partial_fit"):
        return SklearnLearner(model, classes)
    if hasattr(model, "predict") and hasattr(model, "learn"):
        return GenericLearner(model, classes)
    raise TypeError(
        f"{type(model).__name__} is not a learner a recorder can drive: expected a river model (predict_one/"
        "learn_one), a capymoa classifier, a scikit-learn estimator with partial_fit, or an object with "
        "predict(x) and learn(x, y)"
    )
