"""The confusion statistics family: one read of ``y_true`` / ``y_pred`` feeds every estimator.

* :mod:`.layout` -- the state and snapshot layouts (the contract between kernels and finalisers);
* :mod:`.streamtk` -- the general kernel of the default convention (any number of classes,
  weights, missing labels or predictions, every forgetting mechanism);
* :mod:`.dense` -- the fast path for dense two-class streams, bit-identical to the general kernel;
* :mod:`.moa` -- MOA's conventions, bit for bit;
* :mod:`.moa_adwin` -- MOA's ADWIN evaluator (one ADWIN per estimated quantity);
* :mod:`.finalise` -- every metric formula, once, from a snapshot.
"""
