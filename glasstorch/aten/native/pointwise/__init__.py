"""Elementwise operators (TensorIterator's): unary math, binary arithmetic, comparisons,
special functions."""
