"""Tables of a many-models comparison for a paper: LaTeX (booktabs), Markdown and HTML.

One row per dataset, one column per model; each cell is the mean ± standard deviation
over runs; the best value of each dataset is in bold; the last row holds the average
ranks of the Friedman test. Markers:

* ``*`` on an average rank -- the post-hoc procedure finds that model significantly
  different from the best-ranked model (or from the control, when the comparison has one);
* ``†`` on a cell -- on that dataset the model is significantly worse than the dataset's
  best model, by a paired test over the runs (``dataset_test``: Wilcoxon's signed-rank or
  the Sign test, runs paired by their label). With few runs no difference can be
  significant (Wilcoxon needs 6 runs for p < 0.05 two-sided), and then no cell is marked.

A note under the table states the omnibus test, the procedure and the markers' meaning.
"""

from __future__ import annotations

import html
import os
import tempfile
from pathlib import Path

import numpy as np

from .._core.validation import check_choice

__all__ = ["results_table", "write_table", "TABLE_FORMATS"]

TABLE_FORMATS = ("latex", "markdown", "html")
_DATASET_TESTS = ("wilcoxon", "sign")
_LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def _latex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))


def _as_comparison(result, options):
    from ..comparison.across_streams import ManyComparison, compare_many

    if isinstance(result, ManyComparison):
        if options:
            raise TypeError(f"options {sorted(options)} apply to a collection, not to a ManyComparison")
        return result
    import xarray as xr

    if isinstance(result, xr.Dataset):
        if "value" in result and "pvalue_adjusted" in result:
            return ManyComparison.from_dataset(result)
        return compare_many(result, **options)
    raise TypeError(
        f"result must be a ManyComparison, its to_dataset() or a results collection, got {type(result).__name__}"
    )


def _dataset_markers(cmp, test, alpha):
    """``(dataset, model)`` booleans: significantly worse than the dataset's best over paired runs."""
    from ..stats.sign import sign_test
    from ..stats.wilcoxon import wilcoxon_test

    cells = cmp.cells.transpose("dataset", "model", "run")
    vals = np.asarray(cells.values, dtype=np.float64)
    mean = np.nanmean(np.where(np.isnan(vals), np.nan, vals), axis=2) if vals.size else vals
    out = np.zeros(mean.shape, dtype=bool)
    if test is None or vals.shape[2] < 2:
        return out
    for d in range(vals.shape[0]):
        row = mean[d]
        if np.all(np.isnan(row)):
            continue
        best = int(np.nanargmax(row) if cmp.higher_is_better else np.nanargmin(row))
        for m in range(vals.shape[1]):
            if m == best:
                continue
            x, y = vals[d, best], vals[d, m]
            ok = ~np.isnan(x) & ~np.isnan(y)
            if ok.sum() < 2:
                continue
            diff = (x - y)[ok] if cmp.higher_is_better else (y - x)[ok]
            r = wilcoxon_test(diff, alpha=alpha) if test == "wilcoxon" else sign_test(diff, alpha=alpha)
            out[d, m] = bool(r.reject) and float(np.mean(diff)) > 0
    return out


def _one_run(band) -> np.ndarray:
    """``(dataset, model)``: the one defined run of each cell's band (NaN where none is)."""
    v = np.asarray(band.transpose("dataset", "model", "run").values, dtype=np.float64)
    return np.where(np.isnan(v), 0.0, v).sum(axis=2) + np.where(np.isnan(v).all(axis=2), np.nan, 0.0)


def _band_note(cmp) -> str:
    level, method = cmp.lower.attrs.get("interval"), cmp.lower.attrs.get("interval_method")
    what = f"{100 * float(level):g}% " if level is not None else ""
    how = f", {method}" if method else ""
    return f" [{what}band of each stream's value{how}]"


def results_table(
    result,
    *,
    fmt: str = "latex",
    digits: int = 3,
    dataset_test: str | None = "wilcoxon",
    std: bool = True,
    intervals: bool = True,
    scale: float = 1.0,
    caption: str | None = None,
    label: str | None = None,
    **options,
) -> str:
    """The table of a many-models comparison (module docstring) as LaTeX, Markdown or HTML text.

    Parameters
    ----------
    result : ManyComparison, its ``to_dataset()``, or a results collection
        A collection is compared first with :func:`streamtk.comparison.compare_many`
        (``options`` go to it: ``metric``, ``summary``, ``estimator``, ``posthoc``,
        ``control``, ``alpha``, ``runs``, ``missing``).
    fmt : {"latex", "markdown", "html"}
    digits : int
        Decimals of the values (after ``scale``); the best *printed* value of a dataset
        is bold, so values equal at this precision are all bold.
    dataset_test : {"wilcoxon", "sign"} or None
        Paired test over runs behind the ``†`` markers (None: no per-dataset markers).
    std : bool
        Print ``± std`` (sample standard deviation over runs, ``ddof = 1``) when there are runs.
    intervals : bool
        Print each value's band ``[lower, upper]`` when the comparison carries bands (curves computed with
        ``interval=``, a ``final`` or ``at=N`` summary) and each dataset has one run (with several runs the
        ``± std`` over runs is the spread shown).
    scale : float
        Multiply the values (e.g. 100 for percentages); ranks are unaffected.
    caption, label : str, optional
        LaTeX caption / label (caption also used by HTML).

    Returns
    -------
    str
    """
    check_choice(fmt, "fmt", TABLE_FORMATS)
    if dataset_test is not None:
        check_choice(dataset_test, "dataset_test", _DATASET_TESTS)
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or digits < 0:
        raise ValueError(f"digits must be a non-negative integer, got {digits!r}")
    cmp = _as_comparison(result, options)
    ph = cmp.posthoc
    cells = cmp.cells.transpose("dataset", "model", "run")
    models = [str(m) for m in cells["model"].values]
    datasets = [str(d) for d in cells["dataset"].values]
    vals = np.asarray(cells.values, dtype=np.float64) * scale
    n_runs = np.sum(~np.isnan(vals), axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n_runs > 0, np.nansum(vals, axis=2) / np.maximum(n_runs, 1), np.nan)
        dev = np.where(np.isnan(vals), 0.0, vals - mean[..., None])
        sd = np.where(n_runs > 1, np.sqrt(np.sum(dev**2, axis=2) / (n_runs - 1)), np.nan)
    shown = np.round(mean, digits)
    best = np.nanmax(shown, axis=1) if cmp.higher_is_better else np.nanmin(shown, axis=1)
    bold = shown == best[:, None]
    dagger = _dataset_markers(cmp, dataset_test, ph.alpha)
    # the post-hoc reference: the control, else the best average rank
    ref = ph.names.index(ph.control) if ph.control is not None else int(np.argmin(ph.average_ranks))
    star = [bool(ph.reject[ref, ph.names.index(m)]) for m in models]
    ranks = [float(ph.average_ranks[ph.names.index(m)]) for m in models]
    best_rank = min(ranks)
    show_std = std and vals.shape[2] > 1
    show_bands = intervals and cmp.lower is not None and bool((n_runs <= 1).all())
    if show_bands:  # one run per (dataset, model): its band (NaN where there is none)
        band_lo, band_hi = (_one_run(b) * scale for b in (cmp.lower, cmp.upper))

    def cell(d, m, kind):
        if np.isnan(mean[d, m]):
            return "--" if kind == "latex" else "–"
        text = f"{mean[d, m]:.{digits}f}"
        if show_std and not np.isnan(sd[d, m]):
            pm = r" $\pm$ " if kind == "latex" else " ± "
            text += f"{pm}{sd[d, m]:.{digits}f}"
        if show_bands and not (np.isnan(band_lo[d, m]) or np.isnan(band_hi[d, m])):
            text += f" [{band_lo[d, m]:.{digits}f}, {band_hi[d, m]:.{digits}f}]"
        if bold[d, m]:
            text = {"latex": rf"\textbf{{{text}}}", "markdown": f"**{text}**", "html": f"<b>{text}</b>"}[kind]
        if dagger[d, m]:
            text += {"latex": r"$^{\dagger}$", "markdown": "†", "html": "<sup>†</sup>"}[kind]
        return text

    def rank_cell(m, kind):
        text = f"{ranks[m]:.2f}"
        if ranks[m] == best_rank:
            text = {"latex": rf"\textbf{{{text}}}", "markdown": f"**{text}**", "html": f"<b>{text}</b>"}[kind]
        if star[m]:
            text += {"latex": "$^{*}$", "markdown": "\\*", "html": "<sup>*</sup>"}[kind]
        return text

    f = cmp.friedman
    reference = f"the control {ph.control}" if ph.control is not None else f"the best-ranked model ({ph.names[ref]})"
    note = (
        f"{cmp.metric} ({cmp.summary}, {cmp.estimator}), mean"
        + (" ± std" if show_std else "")
        + f" over runs{_band_note(cmp) if show_bands else ''}; "
        f"{'higher' if cmp.higher_is_better else 'lower'} is better; best per dataset in bold. "
        f"Friedman chi2 = {f.statistic:.3f} (p = {f.pvalue:.3g}), Iman-Davenport F = {f.f_statistic:.3f} "
        f"(p = {f.f_pvalue:.3g}) over {ph.n_datasets} {'datasets' if cmp.runs != 'blocks' else 'dataset-runs'}. "
        f"* significantly different from {reference} ({ph.method} post-hoc, alpha = {ph.alpha:g})"
        + (
            f"; † significantly worse than the dataset's best ({dataset_test} test over paired runs, "
            f"alpha = {ph.alpha:g})"
            if dataset_test is not None and vals.shape[2] > 1
            else ""
        )
        + "."
        + (f" Left out for missing values: {', '.join(cmp.dropped)}." if cmp.dropped else "")
    )
    if fmt == "latex":
        cols = "l" + "c" * len(models)
        lines = [r"\begin{table}[t]", r"\centering", rf"\begin{{tabular}}{{{cols}}}", r"\toprule"]
        lines.append(
            " & ".join(["Dataset"] + [_latex(m) + ("$^{c}$" if m == ph.control else "") for m in models]) + r" \\"
        )
        lines.append(r"\midrule")
        for d, name in enumerate(datasets):
            lines.append(" & ".join([_latex(name)] + [cell(d, m, "latex") for m in range(len(models))]) + r" \\")
        lines.append(r"\midrule")
        lines.append(" & ".join(["Average rank"] + [rank_cell(m, "latex") for m in range(len(models))]) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}"]
        cap = (caption + " " if caption else "") + _latex(note).replace("±", r"$\pm$").replace("†", r"$^{\dagger}$")
        cap = cap.replace("chi2", r"$\chi^2_F$").replace("* significantly", r"$^{*}$ significantly")
        if ph.control is not None:
            cap += r" $^{c}$ control."
        lines.append(rf"\caption{{{cap}}}")
        if label:
            lines.append(rf"\label{{{label}}}")
        lines.append(r"\end{table}")
        return "\n".join(lines) + "\n"
    if fmt == "markdown":
        esc = [m.replace("|", "\\|") for m in models]
        head = ["Dataset"] + [m + (" (control)" if mo == ph.control else "") for m, mo in zip(esc, models)]
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join([":---"] + [":---:"] * len(models)) + "|"]
        for d, name in enumerate(datasets):
            lines.append(
                "| "
                + " | ".join([name.replace("|", "\\|")] + [cell(d, m, "markdown") for m in range(len(models))])
                + " |"
            )
        lines.append(
            "| " + " | ".join(["*Average rank*"] + [rank_cell(m, "markdown") for m in range(len(models))]) + " |"
        )
        lines += ["", ((caption + " ") if caption else "") + note.replace("* significantly", "\\* significantly")]
        return "\n".join(lines) + "\n"
    e = html.escape
    out = ['<table class="streamtk-results">']
    out.append(f"<caption>{e((caption + ' ') if caption else '')}{e(note)}</caption>")
    out.append(
        "<thead><tr><th>Dataset</th>"
        + "".join(f"<th>{e(m)}{' (control)' if m == ph.control else ''}</th>" for m in models)
        + "</tr></thead>"
    )
    out.append("<tbody>")
    for d, name in enumerate(datasets):
        out.append(
            f"<tr><th>{e(name)}</th>" + "".join(f"<td>{cell(d, m, 'html')}</td>" for m in range(len(models))) + "</tr>"
        )
    out.append("</tbody>")
    out.append(
        "<tfoot><tr><th>Average rank</th>"
        + "".join(f"<td>{rank_cell(m, 'html')}</td>" for m in range(len(models)))
        + "</tr></tfoot>"
    )
    out.append("</table>")
    return "\n".join(out) + "\n"


def public_mode(path) -> None:
    """Give a temporary file (created private by ``mkstemp``) the permissions of a newly created file."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def write_table(text: str, path) -> Path:
    """Write a table (any text) to ``path``: a temporary file in the same folder, renamed on success."""
    path = Path(path)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"path: the folder {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        public_mode(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
