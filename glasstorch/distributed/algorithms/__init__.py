"""torch.distributed.algorithms: the communication hooks of DistributedDataParallel."""
