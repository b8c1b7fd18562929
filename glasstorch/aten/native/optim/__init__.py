"""Optimizer steps as operators: the float32 arithmetic of torch's for-loop optimizers,
one fused kernel per parameter."""
