"""Sorting and what is built on it: sort and topk, searchsorted and bucketize,
histograms, unique."""
