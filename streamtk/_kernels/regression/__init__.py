"""The regression and prediction-interval families: weighted sums of per-instance errors, the targets' running
mean and variance, order statistics of the errors (maximum, weighted median) and the targets' range, under every
forgetting mechanism (:mod:`.kernel`), and MOA's regression and prediction-interval evaluators (:mod:`.moa`).
Layouts: :mod:`.layout`; the monotone deques and the median's tree search: :mod:`.order`."""
