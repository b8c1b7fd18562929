"""Reductions and scans: sums, extrema, moments, norms, order statistics, cumulative
operators."""
