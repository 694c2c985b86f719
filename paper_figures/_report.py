"""``REPORT.md``: one row per figure and table of the five seeds, with an honest verdict.

A script fills one or more :class:`Section` objects:

* :meth:`Section.check` -- a number the paper prints beside ours, with the paper's printed
  precision; it *matches* when ours, rounded (or truncated, where the paper evidently truncates)
  to that precision, equals the paper's. A number that is the paper's own slip is recorded with
  ``erratum=`` and the evidence.
* :meth:`Section.claim` -- a statement the paper makes (marked as the paper's), our evidence in
  numbers, and whether it holds on our data.
* :meth:`Section.result` -- the verdict of one inventory item (``_inventory.py``): ``exact``,
  ``qualitative match``, ``partial``, ``contradicts``, ``not comparable`` (regenerated, but the seed
  keeps nothing of the original -- no number, picture or testable claim -- to compare it with) or
  ``not reproduced``; derived from the item's checks and claims unless the script states it, always
  with the paper's numbers or claim beside ours and the reason for any deviation.

:class:`Report` writes the summary table (every inventory item, run or not), the "Not reproduced"
list, and each section's checks, claims, tables, logs with their producers, and figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["VERDICTS", "Check", "Claim", "ItemResult", "Section", "Report", "fmt"]

VERDICTS = ("exact", "qualitative match", "partial", "contradicts", "not comparable", "not reproduced")


def fmt(v, decimals=None):
    """A table cell: ints as ints, floats with ``decimals`` (default 4), NaN as an en dash."""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        if math.isnan(v):
            return "–"
        if decimals is None:
            return str(int(v)) if float(v).is_integer() and abs(v) < 1e12 else f"{v:.4f}"
        return f"{v:.{decimals}f}"
    return str(v).replace("|", "\\|").replace("\n", " ")


def _reduce(x, decimals, rule):
    scale = 10.0**decimals
    if rule == "truncate":
        return math.floor(x * scale + 1e-9) / scale
    # round half away from zero, as printed tables do (Python's round() is half-to-even)
    return math.copysign(math.floor(abs(x) * scale + 0.5 + 1e-9), x) / scale


@dataclass
class Check:
    """A number printed in the paper beside ours."""

    item: str
    quantity: str
    paper: object
    ours: object
    decimals: int | None
    rule: str = "round"
    note: str = ""
    erratum: str = ""

    @property
    def matches(self) -> bool:
        if isinstance(self.paper, str) or isinstance(self.ours, str):
            return str(self.paper) == str(self.ours)
        if self.decimals is None:
            return float(self.paper) == float(self.ours)
        return _reduce(float(self.ours), self.decimals, self.rule) == _reduce(float(self.paper), self.decimals, "round")

    @property
    def match_text(self) -> str:
        if self.matches:
            return "yes" if self.rule == "round" else f"yes ({self.rule}d)"
        if self.erratum:
            return f"paper erratum: {self.erratum}"
        return "no"


@dataclass
class Claim:
    """A statement of the paper, our evidence in numbers and whether it holds on our data."""

    item: str
    claim: str
    evidence: str
    holds: bool


@dataclass
class ItemResult:
    item: str
    verdict: str
    paper: str
    ours: str
    reason: str
    section: str


@dataclass
class Section:
    """One script's part of REPORT.md (it may cover several inventory items)."""

    key: str
    title: str
    source: str
    checks: list = field(default_factory=list)
    claims: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    logs: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    results: list = field(default_factory=list)
    seconds: float = float("nan")
    error: str = ""

    def check(self, item, quantity, paper, ours, *, decimals=None, rule="round", note="", erratum=""):
        """Record a printed number of the paper beside ours; returns whether it matches."""
        if rule not in ("round", "truncate"):
            raise ValueError(f"rule must be 'round' or 'truncate', got {rule!r}")
        c = Check(item, quantity, paper, ours, decimals, rule, note, erratum)
        self.checks.append(c)
        return c.matches

    def claim(self, item, claim, holds, evidence):
        """Record a claim of the paper and whether our numbers (``evidence``) support it."""
        self.claims.append(Claim(item, claim, evidence, bool(holds)))
        return bool(holds)

    def table(self, header, rows, caption=""):
        self.tables.append((caption, list(header), [list(r) for r in rows]))

    def note(self, text):
        self.notes.append(text)

    def log(self, name, producer, detail):
        self.logs.append((name, producer, detail))

    def derived_verdict(self, item):
        """``exact`` when the item has checks and all match (errata excepted); otherwise from its
        claims: all hold -> ``qualitative match``, none -> ``contradicts``, some -> ``partial``."""
        checks = [c for c in self.checks if c.item == item]
        claims = [c for c in self.claims if c.item == item]
        if checks and all(c.matches or c.erratum for c in checks) and all(c.holds for c in claims):
            return "exact"
        pool = [c.matches or bool(c.erratum) for c in checks] + [c.holds for c in claims]
        if not pool:
            raise ValueError(f"item {item!r} has neither checks nor claims: state its verdict")
        if all(pool):
            return "qualitative match"
        if not any(pool):
            return "contradicts"
        return "partial"

    def result(self, item, *, paper, ours, reason="", verdict=None, cap=None):
        """The verdict row of inventory item ``item``.

        ``verdict=None`` derives it (:meth:`derived_verdict`); ``cap`` lowers a derived verdict to at
        most this level (e.g. ``"qualitative match"`` when the paper prints no number to match, or
        ``"partial"`` when only part of the item could be run), and ``reason`` must say why.
        """
        v = self.derived_verdict(item) if verdict is None else verdict
        if v not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {v!r}")
        if cap is not None:
            if cap not in VERDICTS:
                raise ValueError(f"cap must be one of {VERDICTS}, got {cap!r}")
            order = {v: i for i, v in enumerate(VERDICTS)}
            v = v if order[v] >= order[cap] else cap
        if v != "exact" and not reason:
            raise ValueError(f"item {item!r}: a verdict other than 'exact' needs a reason")
        self.results.append(ItemResult(item, v, str(paper), str(ours), reason, self.key))
        return v


class Report:
    """Collects sections and writes ``REPORT.md`` against the inventory."""

    def __init__(self, inventory, header=""):
        self.inventory = list(inventory)
        self.header = header
        self.sections: dict[str, Section] = {}
        self.failed_scripts: set = set()

    def section(self, key, title, source) -> Section:
        s = Section(key, title, source)
        self.sections[key] = s
        return s

    def results(self) -> dict:
        out = {}
        for s in self.sections.values():
            for r in s.results:
                out[r.item] = r
        return out

    def markdown(self, *, ran=None) -> str:
        """The whole report; ``ran`` is the set of script names run in this invocation."""
        res = self.results()
        failed = set(self.failed_scripts) | {s.key for s in self.sections.values() if s.error}
        out = ["# streamtk: the five seed papers regenerated", "", self.header, ""]
        out += [
            "## Summary: every figure and table of the five seeds",
            "",
            "Verdicts: **exact** (every printed number matches to its printed precision), **qualitative "
            "match** (every claim of the paper we could test holds on our data, no printed number to match or "
            "a different scale), **partial** (some claims hold, or only part of the item could be run), "
            "**contradicts** (our data contradict the paper's claim), **not comparable** (regenerated, but the seed "
            "keeps nothing of the original -- no number, picture or testable claim -- to compare it with), **not "
            "reproduced** (see below). The "
            "paper's column is the paper's; ours are measured here.",
            "",
            "| seed | item | verdict | paper | streamtk | why it differs | details |",
            "|---|---|---|---|---|---|---|",
        ]
        for it in self.inventory:
            r = res.get(it.id)
            if r is not None:
                link = f"[{r.section}](#{r.section})"
                out.append(
                    f"| {it.seed} | {fmt(it.label)} | **{r.verdict}** | {fmt(r.paper)} | {fmt(r.ours)} | "
                    f"{fmt(r.reason)} | {link} |"
                )
            elif it.script is None:
                out.append(f"| {it.seed} | {fmt(it.label)} | **not reproduced** | – | – | {fmt(it.reason)} | – |")
            elif it.script in failed:
                out.append(f"| {it.seed} | {fmt(it.label)} | **not reproduced** | – | – | script failed | – |")
            elif ran is not None and it.script not in ran:
                out.append(f"| {it.seed} | {fmt(it.label)} | not run | – | – | `{it.script}` not run | – |")
            else:
                out.append(f"| {it.seed} | {fmt(it.label)} | **not reproduced** | – | – | no result recorded | – |")
        out += ["", "## Not reproduced", ""]
        for it in self.inventory:
            r = res.get(it.id)
            if it.script is None:
                out.append(f"- **{it.seed}, {it.label}** ({it.title}): {it.reason}")
            elif r is not None and r.verdict == "not reproduced":
                out.append(f"- **{it.seed}, {it.label}** ({it.title}): {r.reason}")
        out.append("")
        out += ["## Sections", "", "| section | items | time (s) | status |", "|---|---|---|---|"]
        for s in self.sections.values():
            items = ", ".join(sorted({r.item for r in s.results})) or "–"
            out.append(f"| [{s.title}](#{s.key}) | {items} | {s.seconds:.1f} | {'FAILED' if s.error else 'ok'} |")
        for s in self.sections.values():
            out += ["", f'<a id="{s.key}"></a>', f"## {s.title}", "", f"*Source:* {s.source}", ""]
            if s.error:
                out += ["**This script failed:**", "", "```", s.error.rstrip(), "```", ""]
            if s.results:
                out += ["| item | verdict | paper | streamtk | why it differs |", "|---|---|---|---|---|"]
                out += [
                    f"| {r.item} | **{r.verdict}** | {fmt(r.paper)} | {fmt(r.ours)} | {fmt(r.reason)} |"
                    for r in s.results
                ]
                out.append("")
            if s.checks:
                out += [
                    "| item | quantity | paper | streamtk | printed precision | match | note |",
                    "|---|---|---|---|---|---|---|",
                ]
                for c in s.checks:
                    dec = c.decimals
                    # a truncated comparison prints ours with two more digits (rounding would hide the rule)
                    shown = None if dec is None else dec + (2 if c.rule == "truncate" else 0)
                    out.append(
                        f"| {c.item} | {fmt(c.quantity)} | {fmt(c.paper, dec)} | {fmt(c.ours, shown)} | "
                        f"{'–' if dec is None else dec} | {fmt(c.match_text)} | {fmt(c.note)} |"
                    )
                out.append("")
            if s.claims:
                out += ["| item | the paper's claim | holds here | our evidence |", "|---|---|---|---|"]
                out += [
                    f"| {c.item} | {fmt(c.claim)} | {'yes' if c.holds else '**no**'} | {fmt(c.evidence)} |"
                    for c in s.claims
                ]
                out.append("")
            for caption, header, rows in s.tables:
                if caption:
                    out += [caption, ""]
                out += ["| " + " | ".join(fmt(h) for h in header) + " |", "|" + "---|" * len(header)]
                out += ["| " + " | ".join(fmt(c) for c in r) + " |" for r in rows]
                out.append("")
            for n in s.notes:
                out += [n, ""]
            if s.logs:
                out += ["| log | producer | detail |", "|---|---|---|"]
                out += [f"| {fmt(a)} | {fmt(b)} | {fmt(c)} |" for a, b, c in s.logs]
                out.append("")
            for png, vec, cap in s.figures:
                out += [f"![{fmt(cap)}]({png})", "", f"*{cap}* ([vector]({vec}))", ""]
        return "\n".join(out) + "\n"

    def write(self, path, *, ran=None) -> Path:
        """Write the report next to ``path`` first, then rename it into place."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.markdown(ran=ran))
        tmp.replace(path)
        return path
