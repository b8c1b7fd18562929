"""Making tensors and moving data between them: factories, ranges, copies, conversions."""
