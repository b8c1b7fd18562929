"""Shapes and views: view operators, reshaping composites, joining, repeating, triangles and diagonals."""
