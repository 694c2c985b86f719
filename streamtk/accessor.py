"""The ``streamtk`` Dataset accessor: ``ds.streamtk.kind``, ``ds.streamtk.plot(...)``, ``ds.streamtk.table()``.

Importing this module registers the accessor (``import streamtk`` does it). Every
streamtk result Dataset knows what it is (:attr:`StreamtkAccessor.kind`, inferred
from its variables by :func:`streamtk.plot.kinds.dataset_kind`) and plots itself with the
matching function of :mod:`streamtk.plot`::

    ds = streamtk.evaluate(y, p, windows=1000)
    ds.streamtk.plot("kappa", model="A")          # plot_curves
    ds.streamtk.plot(kind="baselines", model="A")  # plot_baselines

The accessor sits above both :mod:`streamtk.plot` and :mod:`streamtk.report` (it uses both).
"""

from __future__ import annotations

import xarray as xr

from .plot.kinds import KINDS, dataset_kind

__all__ = ["StreamtkAccessor"]


@xr.register_dataset_accessor("streamtk")
class StreamtkAccessor:
    """``ds.streamtk``: the kind of a streamtk result, its default plot and its summary table."""

    def __init__(self, ds: xr.Dataset):
        self._ds = ds

    @property
    def kind(self) -> str:
        """See :func:`dataset_kind`."""
        return dataset_kind(self._ds)

    def plot(self, *args, kind: str | None = None, **kwargs):
        """Plot with the :mod:`streamtk.plot` function that fits the Dataset (or ``kind``).

        ``args`` and ``kwargs`` go to that function (``ax=``, ``model=``, ``sel=``...);
        ``kind`` is one of :data:`KINDS` (``"baselines"`` and ``"evidence"`` are only
        chosen explicitly). Returns the function's artists.
        """
        import importlib

        if kind is None:
            kind = self.kind
            if kind == "log":
                raise ValueError(
                    "this Dataset is a log of recorded predictions: evaluate it first "
                    "(streamtk.evaluate(log.y_true, log.y_pred) or `streamtk evaluate LOG`)"
                )
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
        module, name = KINDS[kind]
        func = getattr(importlib.import_module(f"streamtk.plot.{module}"), name)
        return func(self._ds, *args, **kwargs)

    def table(self, metrics=None, *, estimators=None) -> str:
        """Plain-text table of the final checkpoint of evaluation curves (one row per model x estimator)."""
        from streamtk.report.tables import summary_table

        if self.kind not in ("curves", "folds"):
            raise ValueError(f"table() needs evaluation curves (streamtk.evaluate), this Dataset holds {self.kind!r}")
        return summary_table(self._ds, metrics, estimators=estimators)
