"""The U-statistics family (exact AUC, Mann-Whitney U and z): one step, one tree, every forgetting mechanism.

* :mod:`.layout` -- the state layout and the kernels' argument groups (named tuples);
* :mod:`.step` -- the U-statistic step (add or remove one instance), written once;
* :mod:`.general` -- the general kernel: any number of score columns and groups (binary,
  one-vs-rest, pairwise), every forgetting mechanism of :mod:`streamtk._kernels.forgetting`;
* :mod:`.binary` -- the fast path of binary scores (interleaved prequential / fading trees with
  prefetch, block-local window ranks), built from the same helpers;
* :mod:`.offline` -- prequential and fading AUC of a whole binary stream by divide and conquer
  over time (large rank spaces);
* :mod:`.ranks` -- rank compression of scores, merged key spaces, block-local window ranks;
* :mod:`.held` -- the members an estimator holds at chosen positions (ROC and PR curves).

Fenwick trees: :mod:`streamtk._kernels.fenwick`. Finalisation (the AUC, U0 and z formulas):
:mod:`streamtk._core.metrics.auc`. numpy layer: :mod:`streamtk.evaluation.auc_engine`.
"""
