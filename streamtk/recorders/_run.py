"""The two loops of a recording (Python and Java) and the chunk of buffers they fill.

The Python loop runs over spans of instances that end at a block's end or a chunk's end. In a
span, each instance's true class code and each model's predicted code, time and raw scores are
appended to Python lists (an append costs a fraction of a numpy element write); the span is
then written into the chunk with one slice assignment per array, the scores converted at once
(:func:`_score_rows`). Memory is measured at its instance, and a chunk is flushed only when the
next span needs room -- so a run that stops with an error leaves the sink exactly as an
instance-by-instance loop would. A class that only a model's scores name is coded when the span
is converted, not when it is met; the codes of an undeclared class order are internal (the log
sorts the labels), so the log is the same.

Measured on Electricity (45,312 instances) with a river learner that does nothing: the loop's
own cost per instance fell from ~1.6 to ~1.0 microseconds with scores (river's
``progressive_val_score``: ~1.8).
"""

from __future__ import annotations

import math
import time
from itertools import chain

import numpy as np

from ._sink import Chunk

__all__ = ["Run"]


class Run:
    """The chunk being filled, and the two loops that fill it."""

    def __init__(self, learners, index, sink, chunk, want_scores, memory_every, bar):
        self.learners, self.index, self.sink, self.size = learners, index, sink, chunk
        self.want_scores, self.memory_every, self.bar = want_scores, memory_every, bar
        self.m = len(learners)
        self.ch = Chunk(self.m, chunk, len(index), want_scores)
        self.n_seen = 0
        self.last_mem = np.full(self.m, np.nan)

    def _fill_memory(self):
        """Between two measurements a model's size is the last one measured (a step function)."""
        mem = self.ch.mem[:, : self.ch.n]
        pos = np.arange(mem.shape[1])
        for j in range(self.m):
            idx = np.where(np.isnan(mem[j]), -1, pos)
            np.maximum.accumulate(idx, out=idx)
            mem[j] = np.where(idx >= 0, mem[j][np.maximum(idx, 0)], self.last_mem[j])
            if mem.shape[1]:
                self.last_mem[j] = mem[j, -1]

    def _room(self):
        if self.ch.n == self.size:
            self._fill_memory()
            self.sink.flush(self.ch, len(self.index))
            self.ch = Chunk(self.m, self.size, len(self.index), self.want_scores)
        return self.ch

    def _memory(self, row):
        for j, L in enumerate(self.learners):
            self.ch.mem[j, row] = L.memory()

    def python(self, blocks, convs):
        for xs, ys in blocks:
            start, nb = 0, len(ys)
            while start < nb:
                ch = self._room()
                stop = min(nb, start + self.size - ch.n)
                self._span(xs, ys, start, stop, convs)
                start = stop
            if self.bar is not None:
                self.bar.update(nb)

    def _span(self, xs, ys, start, stop, convs):
        """Instances ``start:stop`` of a block, which fit in the current chunk."""
        index, ch, m = self.index, self.ch, self.m
        perf, code, every = time.perf_counter, index.code, self.memory_every
        want = self.want_scores
        y_codes = []
        preds = [[] for _ in range(m)]
        times = [[] for _ in range(m)]
        scores = [[] for _ in range(m)]
        models = list(zip([L.test for L in self.learners], [L.learn for L in self.learners], convs, preds, times,
                          scores))  # fmt: skip
        row0, n0 = ch.n, self.n_seen
        r = 0
        for x, y in zip(xs[start:stop], ys[start:stop]):
            lab = None if (y is None or y != y) else y  # None or NaN: no label
            yc = -1 if lab is None else code(lab, "the label")
            for test, learn, conv, P, T, S in models:
                xx = x if conv is None else conv(x, y, lab)
                t0 = perf()
                c, sc = test(xx)
                if yc >= 0:
                    learn(xx, y, yc)
                T.append(perf() - t0)
                P.append(c)
                if want:
                    S.append(sc)
            y_codes.append(yc)
            r += 1
            if every is not None and ((n0 + r) % every == 0 or n0 + r == 1):
                self._memory(row0 + r - 1)
        a, b = row0, row0 + r
        ch.y[a:b] = y_codes
        for j in range(m):
            ch.pred[j, a:b] = preds[j]
            ch.time[j, a:b] = times[j]
        if want:
            for j in range(m):
                rows = None
                while rows is None:  # None: the scores named classes beyond the chunk's columns (now coded)
                    if len(index) > ch.score.shape[2]:
                        ch.widen(len(index))
                    rows = _score_rows(scores[j], ch.score.shape[2], index)
                ch.score[j, a:b] = rows
        ch.n = b
        self.n_seen = n0 + r

    def java(self, runner, limit):
        every = self.memory_every
        while limit is None or self.n_seen < limit:
            ch = self._room()
            want = min(runner.block, self.size - ch.n)
            if limit is not None:
                want = min(want, limit - self.n_seen)
            if every is not None:
                want = min(want, every - self.n_seen % every, 1 if self.n_seen == 0 else want)
            got, y, pred, score, secs = runner.run(want)
            a, b = ch.n, ch.n + got
            ch.y[a:b] = y
            ch.pred[:, a:b] = pred
            ch.time[:, a:b] = secs
            if ch.score is not None:
                ch.score[:, a:b, : score.shape[2]] = score
            ch.n = b
            self.n_seen += got
            if got and every is not None and (self.n_seen % every == 0 or self.n_seen == 1):
                self._memory(b - 1)
            if self.bar is not None:
                self.bar.update(got)
            if got < want:
                return

    def finish(self):
        ch = self.ch
        if self.memory_every is not None and ch.n and self.n_seen % self.memory_every != 0:
            self._memory(ch.n - 1)
        if ch.n:
            self._fill_memory()
            self.sink.flush(ch, len(self.index))


def _score_rows(scores: list, k: int, index):
    """Rows of ``k`` scores (code order) from a model's answers: None (a NaN row), an array in code
    order (zeros after it) or a mapping label -> score (zeros for the classes it leaves out).

    Labels not coded yet get their codes here (or are refused, for a declared class order); if
    that leaves more classes than ``k`` columns, returns None (the caller widens and asks again).
    Mappings and None only (river, most learners) go through C-level iteration: the labels of all
    mappings in one list, their codes by one ``map``, one fancy assignment.
    """
    n = len(scores)
    kinds = set(map(type, scores))
    if kinds <= {dict, type(None)}:
        none = type(None) in kinds
        if none:
            nan_rows = [i for i, sc in enumerate(scores) if sc is None]
            scores = [_EMPTY if sc is None else sc for sc in scores]
        lens = np.fromiter(map(len, scores), dtype=np.intp, count=n)
        labels = list(chain.from_iterable(scores))
        try:
            cols = np.fromiter(map(index.codes.__getitem__, labels), dtype=np.intp, count=len(labels))
        except KeyError:  # a class not seen before (np.generic keys included): code them in order
            cols = np.array([index.code(label, "a predicted class") for label in labels], dtype=np.intp)
        if len(index) > k:
            return None
        out = np.zeros((n, k))
        out[np.repeat(np.arange(n), lens), cols] = np.fromiter(
            chain.from_iterable(map(dict.values, scores)), dtype=np.float64, count=len(labels)
        )
        if none:
            out[nan_rows] = np.nan
        return out
    codes = index.codes
    flat = [0.0] * (n * k)
    nan_row = [math.nan] * k
    base = 0
    for sc in scores:
        if sc is None:
            flat[base : base + k] = nan_row
        elif isinstance(sc, np.ndarray):
            if sc.shape[0] > k:
                raise ValueError(
                    f"a model gave {sc.shape[0]} class scores for the {len(index)} classes {index.labels!r}"
                )
            flat[base : base + sc.shape[0]] = sc.tolist()
        else:
            for label in sc:
                if codes.get(label) is None:
                    index.code(label, "a predicted class")
            if len(index) > k:
                return None
            for label, p in sc.items():
                flat[base + codes[label]] = p
        base += k
    return np.array(flat, dtype=np.float64).reshape(n, k)


_EMPTY: dict = {}
