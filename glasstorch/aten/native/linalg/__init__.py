"""Linear algebra: BLAS products, matmul and its relatives, einsum, distances."""
