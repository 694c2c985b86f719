"""The six-panel overview figure of one evaluation (``streamtk demo`` writes it as ``streamtk-demo.png``).

Panels: one model's accuracy under every estimator with the ADWIN width and alarms; another model
against the no-skill baselines; the signed McNemar comparison of the two; Page-Hinkley on the first
model's errors; the labels' temporal dependence; kappa against Kappa-Temporal for every model. Each
panel is a :mod:`streamtk.plot` function (the last one is drawn here); legends cover no data and no
text, and titles are broken to their panel's width (:func:`streamtk.plot._layout.layout_problems`
finds nothing; the tests check it).
"""

from __future__ import annotations

__all__ = ["overview_figure"]


def overview_figure(ds, cmp, adwin, page_hinkley, dep, drifts, alarms, *, a="adaptive", b="static"):
    """The overview Figure.

    Parameters
    ----------
    ds : xarray.Dataset
        :func:`streamtk.evaluate` of several models with an estimator ``window=1000`` and an ADWIN one.
    cmp : xarray.Dataset
        :func:`streamtk.comparison.compare.compare` of the same models.
    adwin, page_hinkley : xarray.Dataset
        ADWIN and Page-Hinkley (MOA form) runs on model ``a``'s 0/1 errors.
    dep : xarray.Dataset
        :func:`streamtk.dependence.label_dependence.label_dependence` of the labels.
    drifts : sequence of int
        The true drifts (0-based indices).
    alarms : dict
        ``{"adwin": alarm indices, ...}``.
    a, b : str
        The two models the panels single out.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    from ..plot._layout import fit_title, place_legend
    from ..plot.compare import plot_comparison
    from ..plot.curves import plot_baselines, plot_curves
    from ..plot.drift import plot_detector
    from ..plot.temporal import plot_dependence

    fig, axes = plt.subplots(3, 2, figsize=(13, 12), constrained_layout=True)
    estimators = [str(e) for e in ds.estimator.values]
    title = f"{a} model: accuracy; ADWIN width (grey, right axis) and alarms"
    plot_curves(ds, "accuracy", model=a, ax=axes[0, 0], drifts=drifts, detections=alarms["adwin"], width=adwin,
                estimators=estimators, title=title)  # fmt: skip
    plot_baselines(ds, "accuracy", model=b, ax=axes[0, 1], drifts=drifts,
                   title=f"{b} model vs the Majority and Persistent baselines (prequential)")  # fmt: skip
    plot_comparison(cmp, "mcnemar", a=a, b=b, ax=axes[1, 0], drifts=drifts,
                    title=f"signed McNemar, {a} vs {b} (> 0: {a} worse)")  # fmt: skip
    plot_detector(page_hinkley, ax=axes[1, 1], drifts=drifts, title=f"Page-Hinkley (MOA) on the {a} model's errors")
    plot_dependence(dep, ax=axes[2, 0], drifts=drifts)
    ax = axes[2, 1]
    for i, model in enumerate(ds.model.values):
        for metric, ls, name in (("kappa", "-", r"$\kappa$"), ("kappa_per", "--", r"$\kappa_{per}$")):
            ax.plot(ds.instance, ds[metric].sel(model=model, estimator="window=1000"), color=f"C{i}", lw=1.1, ls=ls,
                    label=f"{model}: {name}")  # fmt: skip
    ax.axhline(0.0, color="k", lw=0.8)
    ax.set_title(r"$\kappa$ (solid) vs Kappa-Temporal $\kappa_{per}$ (dashed), window=1000")
    ax.set_xlabel("instances")
    ax.set_ylabel(r"$\kappa$, $\kappa_{per}$")
    # legends in an empty corner, else below their panel (on the right, two columns of panels and legends
    # would leave each plot a third of the figure's width): all taken out first, then placed
    entries = []
    for ax in axes.ravel():
        legend = ax.get_legend()
        handles, labels = ax.get_legend_handles_labels()
        if legend is not None:
            handles, labels = legend.legend_handles, [t.get_text() for t in legend.get_texts()]
            legend.remove()
        entries.append((ax, handles, labels))
    for ax, handles, labels in entries:
        place_legend(ax, handles, labels, ncol=3, outside="below")
    for ax in axes.ravel():  # the legends set the panels' final sizes
        fit_title(ax)
    return fig
