"""Recorders: run learners test-then-train over a stream and keep every prediction as a streamtk log.

:func:`record` drives river models, capymoa/MOA learners, scikit-learn estimators with
``partial_fit`` and any object with ``predict``/``learn`` over capymoa streams, ARFF files,
streamtk datasets, numpy/pandas arrays or river datasets -- several models over the same
stream in one run, with a progress bar, and appending to a zarr store for runs longer than
memory. The log it returns goes straight into :func:`streamtk.evaluate`::

    from river import naive_bayes, tree
    import streamtk
    from streamtk.recorders import record

    log = record({"HT": tree.HoeffdingTreeClassifier(), "NB": naive_bayes.GaussianNB()},
                 streamtk.datasets.load("electricity"))
    curves = streamtk.evaluate(log.y_true, log.y_pred, windows=1000)

:func:`record_regression` records river and capymoa regressors and interval predictors
(:mod:`~streamtk.recorders.regression`) for :func:`streamtk.regression_curves` and :func:`streamtk.interval_curves`.

Multi-label learners (river's ``multioutput`` chains, MOA's multi-label learners, any ``predict``/``learn``
object): :func:`~streamtk.recorders.multilabel.record_multilabel`, whose log goes into
:func:`streamtk.multilabel_curves`.

Modules: :mod:`~streamtk.recorders.recorder` (:func:`record`, the loops), ``_learners`` (one adapter per
library), ``_streams`` (one adapter per kind of stream), ``_sink`` (memory or zarr),
:mod:`~streamtk.recorders.multilabel` (:func:`record_multilabel`).
"""

from .multilabel import record_multilabel
from .recorder import record
from .regression import record_regression

__all__ = ["record", "record_multilabel", "record_regression"]
