"""The change detectors as numba kernels: one driver per detector, fast paths from the same step functions.

* :mod:`.alarms`: recording detections (absolute 0-based indices, buffer overflow counted);
* :mod:`.monitored`: the monitored estimate of a stream under each forgetting mechanism (raw,
  prequential, window, fading, tumbling, landmarks; ratios), one step for every path;
* :mod:`.ph_test`: the Page-Hinkley step (Gama et al. 2013; MOA's ``PageHinkleyDM``) and the run of one
  test (shared by settings, or private after a restart) over a block;
* :mod:`.ph_lanes`: Page-Hinkley tests side by side as SIMD lanes (fast path);
* :mod:`.page_hinkley`, :mod:`.ddm`, :mod:`.eddm`: the drivers.

Every driver runs a grid of settings over ``L`` independent rows in one read of the data, carries its
state across chunks (any chunking equals one pass) and releases the GIL (the numpy layer runs blocks of
rows on threads). ADWIN is :mod:`streamtk._kernels.adwin`.
"""
