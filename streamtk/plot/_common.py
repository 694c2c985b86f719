"""Helpers shared by the plot functions: axes, input checks, selection, symbols, robust limits.

* :func:`robust_ylim` sets y-limits from the bulk of the values so that a few spikes (e.g.
  kappa_per = -13 of a tiny ADWIN window) do not flatten every other curve, and marks each
  clipped value with a triangle on the axes edge.
* :func:`axis_label` writes a metric as the papers do (``$\\kappa_m$``) with its units.
* legends and text layout (:func:`place_legend`, :func:`covered_points`, :func:`fit_title`,
  :func:`layout_problems`) live in :mod:`streamtk.plot._layout` and are re-exported here.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._core.metrics import REGISTRY
from ._layout import covered_points, fit_title, layout_problems, place_legend

__all__ = [
    "new_axes",
    "require",
    "select",
    "x_of",
    "draw_drifts",
    "TRUE_DRIFT_STYLE",
    "axis_label",
    "natural_range",
    "place_legend",
    "covered_points",
    "fit_title",
    "layout_problems",
    "robust_ylim",
]

TRUE_DRIFT_STYLE = {"color": "0.35", "ls": ":", "lw": 1.0}


def natural_range(name) -> tuple:
    """The bounds the values of metric ``name`` cannot leave (the registry's ``limits``; none outside it)."""
    m = REGISTRY.get(str(name))
    return m.limits if m is not None else (None, None)


def new_axes(ax, figsize=(7.0, 3.5)):
    """``ax`` itself, or the axes of a new figure (matplotlib imported here, lazily)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, constrained_layout=True)
    return ax


def require(ds, variables, what: str, hint: str):
    """Refuse anything that is not a Dataset holding ``variables`` (message names what is missing)."""
    if not isinstance(ds, xr.Dataset):
        raise TypeError(f"{what} needs an xarray.Dataset ({hint}), got {type(ds).__name__}")
    missing = [v for v in variables if v not in ds.variables]
    if missing:
        raise ValueError(
            f"{what} needs the variables {missing} ({hint}); this Dataset has {sorted(map(str, ds.data_vars))}"
        )


def select(da: xr.DataArray, keep, sel: dict | None, name: str) -> xr.DataArray:
    """Apply ``sel`` (label selection) and check that only the dims in ``keep`` remain."""
    for dim, value in (sel or {}).items():
        if dim not in da.dims:
            raise ValueError(f"{name} has no dimension {dim!r} to select from; its dims are {da.dims}")
        try:
            da = da.sel({dim: value})
        except KeyError:
            raise ValueError(f"{dim}={value!r} is not in {name}; choose one of {da[dim].values.tolist()}") from None
    extra = [d for d in da.dims if d not in keep]
    if extra:
        choices = {d: (da[d].values.tolist() if d in da.coords else f"0..{da.sizes[d] - 1}") for d in extra}
        raise ValueError(
            f"select the dims {extra} of {name} first (pass e.g. sel={{{extra[0]!r}: ...}}); choices: {choices}"
        )
    return da


def band_of(ds, name: str, keep, sel: dict | None, what: str):
    """``(lower, upper)`` of ``ds[name]`` (its ``<name>_lower`` / ``<name>_upper``) selected like the curve, or a
    clear error when the Dataset was computed without ``interval=``."""
    missing = [f"{name}_{side}" for side in ("lower", "upper") if f"{name}_{side}" not in ds.variables]
    if missing:
        raise ValueError(
            f"{what}(bands=True) needs {missing}: compute the curves with interval= (e.g. interval=0.95) to get "
            f"bands on {name!r}"
        )
    return tuple(select(ds[f"{name}_{side}"], keep, sel, f"{name}_{side}") for side in ("lower", "upper"))


def band_label(ds) -> str:
    """The legend entry of the bands: their level and method (``attrs`` of the Dataset)."""
    level, method = ds.attrs.get("interval"), ds.attrs.get("interval_method", "")
    level = f"{100 * float(level):g}% " if level is not None else ""
    what = "confidence sequence" if method == "sequence" else f"{method.replace('_', ' ')} band".strip()
    return f"{level}{what}"


def fill_band(ax, x, lower, upper, color, label=None):
    """Shade ``[lower, upper]`` in the curve's colour (under the curves; NaN bounds leave a gap)."""
    lo, hi = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    return ax.fill_between(x, lo, hi, color=color, alpha=0.18, lw=0, zorder=0.5, label=label)


def x_of(obj) -> tuple:
    """The ``instance`` coordinate (1-based count of instances seen) and its axis label."""
    if "instance" in obj.coords:
        return obj["instance"].values, "instances"
    return range(1, obj.sizes["time"] + 1), "time step"


def draw_drifts(ax, drifts, artists: list) -> None:
    """Dotted vertical lines at the true drifts (0-based indices, drawn at ``instance = index + 1``)."""
    for d in () if drifts is None else np.atleast_1d(np.asarray(drifts, dtype=float)):
        artists.append(ax.axvline(d + 1.0, **TRUE_DRIFT_STYLE))


def axis_label(name: str, da=None) -> str:
    """The metric's symbol (``$\\kappa_m$``) and its units when they are not the plain ratio ``1``."""
    m = REGISTRY.get(str(name))
    label = m.label if m is not None else (da.attrs.get("long_name", name) if da is not None else name)
    units = da.attrs.get("units", "1") if da is not None else "1"
    return label if units in ("1", "", None) else f"{label} ({units})"


# --------------------------------------------------------------------------- robust limits
def robust_limits(values, natural=(None, None), *, quantile=0.01, factor=3.0):
    """``(lo, hi, clipped)``: limits holding the bulk of ``values``.

    The limits are the full range of the finite values unless it is more than ``factor``
    times the range between the ``quantile`` and ``1 - quantile`` quantiles; then they are
    those quantiles widened by half that range on each side. A natural bound of the metric
    (``natural``, e.g. accuracy in [0, 1]) is never exceeded. ``clipped`` says whether any
    value lies outside.
    """
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    if not v.size:
        return None, None, False
    lo, hi = float(v.min()), float(v.max())
    # the quantiles round inwards, so that one spike among a few dozen checkpoints is not "the bulk"
    qlo = float(np.quantile(v, quantile, method="higher"))
    qhi = float(np.quantile(v, 1.0 - quantile, method="lower"))
    spread = qhi - qlo
    if spread > 0 and (hi - lo) > factor * spread:
        lo, hi = max(lo, qlo - 0.5 * spread), min(hi, qhi + 0.5 * spread)
    pad = 0.05 * (hi - lo) if hi > lo else (0.05 * abs(hi) if hi else 0.05)
    lo, hi = lo - pad, hi + pad
    nlo, nhi = natural
    if nlo is not None:
        lo = max(lo, nlo - 0.02 * (hi - lo))
    if nhi is not None:
        hi = min(hi, nhi + 0.02 * (hi - lo))
    clipped = bool((v < lo).any() or (v > hi).any())
    return lo, hi, clipped


def robust_ylim(ax, series, *, natural=(None, None), lo_hi=None, color="0.2"):
    """Set robust y-limits for ``series`` (pairs ``(x, y)``) and mark every clipped value.

    A value above the upper limit is a triangle pointing up on the top edge of the axes, a value
    below the lower limit a triangle pointing down on the bottom edge, at its ``x`` (the marker is
    labelled "clipped (n values)"). ``lo_hi`` imposes the limits (e.g. shared by the panels of one
    metric). Returns the marker artists.
    """
    if lo_hi is None:
        allv = np.concatenate([np.asarray(y, dtype=float).ravel() for _, y in series]) if series else np.empty(0)
        lo, hi, _ = robust_limits(allv, natural)
    else:
        lo, hi = lo_hi
    if lo is None or hi is None or not hi > lo:
        return []
    ax.set_ylim(lo, hi)
    xs_hi, xs_lo = [], []
    for x, y in series:
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        xs_hi.append(x[y > hi])
        xs_lo.append(x[y < lo])
    up, down = np.concatenate(xs_hi) if xs_hi else [], np.concatenate(xs_lo) if xs_lo else []
    artists = []
    n = len(up) + len(down)
    label = f"clipped ({n} value{'s' if n != 1 else ''})"
    trans = ax.get_xaxis_transform()
    if len(up):
        artists.append(ax.plot(up, np.full(len(up), 1.0), ls="none", marker="^", ms=5, color=color, clip_on=False,
                               transform=trans, label=label, zorder=5)[0])  # fmt: skip
        label = "_nolegend_"
    if len(down):
        artists.append(ax.plot(down, np.full(len(down), 0.0), ls="none", marker="v", ms=5, color=color, clip_on=False,
                               transform=trans, label=label, zorder=5)[0])  # fmt: skip
    return artists
