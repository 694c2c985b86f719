"""Learning curves: one line per estimator (and per model), straight from an evaluate Dataset."""

from __future__ import annotations

__all__ = ["plot_curves"]


def plot_curves(ds, metric="accuracy", *, ax=None, model=None, estimators=None, drifts=None, title=None, **line_kw):
    """Plot ``ds[metric]`` against ``instance``, one line per estimator (and model).

    Parameters
    ----------
    ds : xarray.Dataset
        Output of :func:`streamtk.evaluate` (dims ``(*lead, estimator, time)``).
    metric : str
        Variable to plot.
    ax : matplotlib Axes, optional
        Axes to draw on (a new figure is made when omitted).
    model : label, optional
        Select one entry of a ``model`` dimension; other leading dims must be
        selected by the caller.
    estimators : sequence of str, optional
        Estimator labels to draw (default: all).
    drifts : sequence of int, optional
        Instance counts at which to draw vertical drift markers.

    Returns
    -------
    list of matplotlib artists (the lines, then the drift markers).
    """
    import matplotlib.pyplot as plt

    if metric not in ds:
        raise ValueError(f"metric {metric!r} is not in the Dataset; it has {', '.join(map(str, ds.data_vars))}")
    da = ds[metric]
    if model is not None:
        da = da.sel(model=model)
    extra = [d for d in da.dims if d not in ("estimator", "time")]
    if extra:
        raise ValueError(f"select the leading dims {extra} first (e.g. ds.sel({extra[0]}=...)) or pass model=")
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5))
    labels = list(da.estimator.values) if estimators is None else list(estimators)
    artists = []
    x = ds.instance.values
    for lab in labels:
        (line,) = ax.plot(x, da.sel(estimator=lab).values, label=str(lab), lw=1.2, **line_kw)
        artists.append(line)
    for d in drifts or ():
        artists.append(ax.axvline(d, color="0.3", ls=":", lw=1))
    ax.set_xlabel("instances")
    ax.set_ylabel(da.attrs.get("long_name", metric))
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small", frameon=False)
    return artists
