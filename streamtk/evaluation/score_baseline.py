"""The constant-score baseline row of :func:`streamtk.auc_curves` (``baseline=True``)."""

from __future__ import annotations

import numpy as np

__all__ = ["BASELINE", "with_baseline"]


#: the label of the baseline row of :func:`auc_curves` (``baseline=True``)
BASELINE = "constant score"


def with_baseline(s, pc, w, lead, code):
    """The inputs with a constant-score series appended along ``model`` (always predicting class ``code``)."""
    import xarray as xr

    from .._labelled import LeadingDims

    if lead.names not in ((), ("model",)):
        raise ValueError(
            f"baseline=True adds a 'model' row: y_score may have no leading dim or a 'model' dim, got {lead.names}"
        )
    if w is not None and not (w == w[:1]).all():
        raise ValueError("baseline=True needs the same weights for every series (the baseline row takes them)")
    s = np.concatenate([s, np.zeros((1,) + s.shape[1:])], axis=0)
    if pc is not None:
        pc = np.concatenate([pc, np.full((1, pc.shape[1]), code, dtype=pc.dtype)], axis=0)
    if w is not None:
        w = np.concatenate([w, w[:1]], axis=0)
    if lead.names:
        old = lead.coords["model"].values.tolist() if "model" in lead.coords else list(range(lead.size))
    else:
        old = ["y_score"]
    labels = [str(v) for v in old] + [BASELINE]
    return s, pc, w, LeadingDims(("model",), (len(labels),), {"model": xr.Variable("model", labels)})
