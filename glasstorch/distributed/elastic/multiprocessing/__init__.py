"""torch.distributed.elastic.multiprocessing: the error reporting of launched processes."""
