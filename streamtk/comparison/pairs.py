"""Which loss rows a comparison compares, and the layout of its result (:func:`streamtk.compare`)."""

from __future__ import annotations

import numpy as np

from .._kernels.sums import SN
from .._labelled import LeadingDims
from ..evaluation.sums import sums_job

__all__ = ["Pairs", "MODEL"]

MODEL = "model"


class Pairs:
    """Which loss rows are compared, and the layout of the result.

    Two inputs with equal leading dims: row ``l`` of A against row ``l`` of B. One input with a
    ``model`` dim: every pair ``a <= b`` of models within each combination of the other leading
    dims, the mirror ``(b, a)`` filled by swapping A and B; result dims ``model_a``, ``model_b``.
    """

    def __init__(self, leads: list):
        if len(leads) == 2:
            lead_a, lead_b = leads
            if (lead_a.names, lead_a.shape) != (lead_b.names, lead_b.shape):
                raise ValueError(
                    "the two models' leading dimensions do not agree: "
                    f"{dict(zip(lead_a.names, lead_a.shape))} vs {dict(zip(lead_b.names, lead_b.shape))}"
                )
            L = lead_a.size
            self.groups = np.stack([np.arange(L), np.arange(L, 2 * L)], axis=1)
            self.lead, self.pair_dims, self.pair_coords, self.model = lead_a, (), {}, None
            return
        (lead,) = leads
        if MODEL not in lead.names:
            raise ValueError(
                "give the second model (y_pred_b / loss_b), or one input with a 'model' dimension holding all models "
                f"(its leading dims are {lead.names}; name numpy dims with lead_dims=)"
            )
        axis = lead.names.index(MODEL)
        M = lead.shape[axis]
        idx = np.moveaxis(np.arange(lead.size).reshape(lead.shape), axis, -1).reshape(-1, M)
        self.a, self.b = np.triu_indices(M)
        self.groups = np.stack([idx[:, self.a].ravel(), idx[:, self.b].ravel()], axis=1)
        self.model = (idx.shape[0], M)
        names = lead.names[:axis] + lead.names[axis + 1 :]
        self.lead = LeadingDims(
            names,
            lead.shape[:axis] + lead.shape[axis + 1 :],
            {k: v for k, v in lead.coords.items() if MODEL not in v.dims},
        )
        labels = lead.coords[MODEL].values if MODEL in lead.coords else np.arange(M)
        self.pair_dims = ("model_a", "model_b")
        self.pair_coords = {"model_a": ("model_a", labels), "model_b": ("model_b", labels)}

    @property
    def n_rows(self) -> int:
        """Output rows: one per pair of series (two inputs), or ``models x models`` per other series."""
        return self.groups.shape[0] if self.model is None else self.model[0] * self.model[1] ** 2

    def jobs(self, metrics) -> list:
        """The sums jobs that finalise ``metrics`` (and ``n_instances``) into the output rows.

        With a ``model`` dim, pair ``(a, b)`` (``a <= b``) of series ``r`` fills row ``(r, a, b)`` and, read
        as ``(B, A)``, its mirror ``(r, b, a)`` (the diagonal twice, with the same values).
        """
        every = slice(0, self.groups.shape[0])
        copies = {"n_instances": SN}
        if self.model is None:
            return [sums_job(metrics, every, np.arange(self.groups.shape[0]), copies=copies)]
        R, M = self.model
        r = np.repeat(np.arange(R), self.a.size)
        a, b = np.tile(self.a, R), np.tile(self.b, R)
        return [
            sums_job(metrics, every, (r * M + a) * M + b, copies=copies),
            sums_job(metrics, every, (r * M + b) * M + a, swap=True, copies=copies),
        ]

    def shape(self, arr: np.ndarray) -> np.ndarray:
        """Output rows ``(rows, E, C)`` -> ``(*lead, *pair, E, C)``."""
        pair = () if self.model is None else (self.model[1],) * 2
        return arr.reshape(self.lead.shape + pair + arr.shape[1:])
