"""Meta rules: shape, dtype and stride inference without data (ATen's structured meta)."""
