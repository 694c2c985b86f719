"""Drift detectors fed chunk by chunk in :func:`streamtk.runners.outofcore.evaluate_store`."""

from __future__ import annotations

import numpy as np
import xarray as xr

__all__ = ["check_detectors", "detector_vars", "feed_detectors", "loss_of"]


def check_detectors(detectors) -> dict:
    from ..drift._common import ChunkedDetector
    from ..drift.adwin import Adwin

    if detectors is None:
        return {}
    if not isinstance(detectors, dict):
        raise TypeError(
            f"detectors must be a dict name -> detector object (e.g. {{'ddm': DDM(trace=False)}}), got {detectors!r}"
        )
    for key, det in detectors.items():
        if not isinstance(key, str) or not key or "/" in key or key.startswith("."):
            raise ValueError(f"detectors keys name output variables: non-empty strings without '/', got {key!r}")
        if isinstance(det, ChunkedDetector):
            if det.trace:
                raise ValueError(
                    f"detectors[{key!r}] keeps a per-instance trace, which grows with the stream: "
                    "construct it with trace=False"
                )
        elif not isinstance(det, Adwin):
            raise TypeError(f"detectors[{key!r}] must be an Adwin, DDM, EDDM or PageHinkley object, got {det!r}")
        if det.n_seen:
            raise ValueError(f"detectors[{key!r}] has already seen {det.n_seen} instances; pass a fresh one")
    return dict(detectors)


def feed_detectors(detectors, adwin_hits, loss, lead):
    from ..drift.adwin import Adwin

    for key, det in detectors.items():
        x = lead.reshape(loss) if lead.names else loss[0]
        det.update(xr.DataArray(x, dims=lead.names + ("time",), coords=lead.coords) if lead.names else x)
        if isinstance(det, Adwin):  # keep only the detection steps, not the per-instance trace
            for _width, _mean, _variance, detection, instance in det._chunks:
                rows, cols = np.nonzero(detection)
                for r, c in zip(rows.tolist(), cols.tolist()):
                    adwin_hits[key][r].append((int(instance[c]) - 1, int(detection[r, c])))
            det._chunks.clear()
            det._time_coords.clear()


def detector_vars(detectors, adwin_hits, lead) -> xr.Dataset:
    from ..drift.adwin import Adwin, padded_cuts

    parts = []
    for key, det in detectors.items():
        num = f"{key}_detection_number"
        if isinstance(det, Adwin):
            hits = adwin_hits[key]
            idx, sign = padded_cuts(hits)
            dims = lead.names + (num,)
            parts.append(
                xr.Dataset(
                    {
                        f"{key}_n_detections": (
                            lead.names,
                            lead.reshape(np.array([len(h) for h in hits], dtype=np.int64))
                            if lead.names
                            else np.int64(len(hits[0])),
                            {"long_name": "number of ADWIN cuts", "units": "1"},
                        ),
                        f"{key}_detection_index": (
                            dims,
                            lead.reshape(idx) if lead.names else idx[0],
                            {
                                "long_name": "0-based instance index of each ADWIN cut",
                                "fill_value_meaning": "-1 pads rows with fewer detections",
                            },
                        ),
                        f"{key}_detection_sign": (
                            dims,
                            lead.reshape(sign) if lead.names else sign[0],
                            {"long_name": "ADWIN detection flag at the cut (+1 mean rose, -1 not)"},
                        ),
                    },
                    coords=lead.coords,
                )
            )
        else:
            res = det.result()
            res = res.rename({v: f"{key}_{v}" for v in res.data_vars}).rename_dims({"detection_number": num})
            parts.append(res.drop_attrs(deep=False))
    return xr.merge(parts, combine_attrs="drop") if parts else xr.Dataset()


def loss_of(yt, yp, L) -> np.ndarray:
    """Each model's 0/1 loss ``[y_pred != y_true]`` on a chunk (every label must be present)."""
    miss = (
        np.array([v is None for v in yt.tolist()])
        if yt.dtype == object
        else (np.isnan(yt) if yt.dtype.kind == "f" else np.zeros(yt.shape, bool))
    )
    if miss.any():
        raise ValueError(
            "detectors need a label for every instance: y_true has missing labels at 0-based "
            f"chunk positions {np.flatnonzero(miss)[:5].tolist()}"
        )
    return (yp.reshape(L, -1) != yt[None, :]).astype(np.float64)
