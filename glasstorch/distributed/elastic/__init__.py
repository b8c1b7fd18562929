"""torch.distributed.elastic: what launched scripts use of it (`multiprocessing.errors.record`)."""
