"""The two loops of a recording (Python and Java) and the chunk of buffers they fill.

The Python loop runs over spans of instances that end at a block's end or a chunk's end. In a
span, each instance's true class code and each model's predicted code, time and scores are
appended to Python lists (an append costs a fraction of a numpy element write); the span is
then written into the chunk with one slice assignment per array. Class codes are given in the
order the loop meets the labels (true label, then each model's prediction and score labels, as
before), memory is measured at its instance, and a chunk is flushed only when the next span
needs room -- so a run that stops with an error leaves the sink exactly as an instance-by-instance
loop would. Measured on Electricity with a learner that does nothing: the loop's own cost per
instance and model fell from ~1.0 to ~0.4 microseconds (river's loop: ~1.2).
"""

from __future__ import annotations

import math
import time

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
        perf, code, codes, every = time.perf_counter, index.code, index.codes, self.memory_every
        want, grow = self.want_scores, not index.fixed
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
                    if grow and sc is not None and not isinstance(sc, np.ndarray) and not (sc.keys() <= codes.keys()):
                        for label in sc:  # new classes get their codes in the order they are met
                            code(label, "a predicted class")
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
            if len(index) > ch.score.shape[2]:
                ch.widen(len(index))
            for j in range(m):
                ch.score[j, a:b] = _score_rows(scores[j], ch.score.shape[2], index)
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


def _score_rows(scores: list, k: int, index) -> np.ndarray:
    """Rows of ``k`` scores from a model's answers: None (a NaN row), an array in code order (zeros
    after it) or a mapping label -> score (zeros for the classes it leaves out)."""
    codes = index.codes
    flat = [0.0] * (len(scores) * k)
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
            for label, p in sc.items():
                c = codes.get(label)
                flat[base + (index.code(label, "a predicted class") if c is None else c)] = p
        base += k
    return np.array(flat, dtype=np.float64).reshape(len(scores), k)
