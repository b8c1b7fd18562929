"""torch.backends.xeon: the home of torch's launcher for Intel Xeon CPUs (its `run_cpu`
script pins processes to cores); the package itself holds no names."""
