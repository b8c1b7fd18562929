"""torch.utils.benchmark.utils: the Timer, its Measurements, and Compare."""
