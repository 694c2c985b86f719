"""Change detectors over recorded streams and the evaluation of their detections."""
