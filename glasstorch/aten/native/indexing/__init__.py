"""Indexing: advanced indexing, gather/scatter, whole slices by index, bool masks."""
