"""Bad input across ranks (run by the launcher on 2 ranks): each refused with torch's
exception type and message, and the group still works after."""
import torch
import torch.distributed as dist


def refused(call, kind, text):
    try:
        call()
    except kind as error:
        assert text in str(error), str(error)
        return
    raise AssertionError(f"{call} was not refused")


refused(dist.get_rank, ValueError, "Default process group has not been initialized")
dist.init_process_group("gloo")
rank = dist.get_rank()
refused(lambda: dist.init_process_group("gloo"), ValueError,
        "trying to initialize the default process group twice!")
refused(lambda: dist.all_reduce(torch.ones(2 + rank)), RuntimeError,
        "Detected mismatch between collectives on ranks")
refused(lambda: dist.broadcast(torch.ones(2), 5), RuntimeError,
        "ProcessGroupGloo::broadcast: invalid root rank: 5")
refused(lambda: dist.new_group([0, 5]), ValueError,
        "Rank 5 is out of range. Valid ranks are 0 to 1 (world_size=2)")
refused(lambda: dist.send(torch.ones(2), rank), ValueError,
        "Invalid destination rank: destination rank should not be the same")
refused(lambda: dist.all_gather([torch.ones(2)], torch.ones(2)), RuntimeError,
        "ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected "
        "length 2, got 1)")
refused(lambda: dist.all_gather_into_tensor(torch.ones(3), torch.ones(2)), RuntimeError,
        "ProcessGroupGloo::allgather: invalid tensor size at index 1 (expected (2), got (1))")
refused(lambda: dist.all_reduce(torch.ones(2), op=dist.ReduceOp.BAND), RuntimeError,
        "Cannot use ReduceOp.BAND with non-integral dtype")
refused(lambda: dist.all_reduce(torch.ones(2, dtype=torch.complex64), op=dist.ReduceOp.MAX),
        ValueError, "all_reduce does not support RedOpType.MAX on complex tensors")
refused(lambda: dist.gather(torch.ones(2), None, dst=0) if rank == 0 else
        dist.gather(torch.ones(2), [torch.ones(2)] * 2, dst=0), ValueError,
        "must be specified on destination rank." if rank == 0 else
        "must NOT be specified on non-destination ranks.")
tensor = torch.ones(2)
dist.all_reduce(tensor)                 # the group still works after the refusals
assert tensor.tolist() == [2.0, 2.0]
print(f"rank {rank}: errors OK", flush=True)
dist.destroy_process_group()
refused(dist.get_rank, ValueError, "Default process group has not been initialized")
