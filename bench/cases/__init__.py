"""Benchmark cases by topic; the runner imports every module in this folder."""
