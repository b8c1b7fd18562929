"""Every collective on 2 or 4 ranks, each checked against NumPy (run by the launcher)."""
import numpy as np
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank, size = dist.get_rank(), dist.get_world_size()


def data(r, dtype=torch.float32, shape=(2, 3)):
    return (torch.arange(6).reshape(shape) + 10 * r + 1).to(dtype)


def everyone(dtype=torch.float32):
    return np.stack([data(r, dtype).to(torch.float64).numpy() for r in range(size)])


def close(tensor, expected):
    np.testing.assert_allclose(tensor.to(torch.float64).numpy(), expected, rtol=1e-2)


reductions = {dist.ReduceOp.SUM: np.sum, dist.ReduceOp.PRODUCT: np.prod,
              dist.ReduceOp.MIN: np.min, dist.ReduceOp.MAX: np.max,
              dist.ReduceOp.AVG: np.mean}
for op, reference in reductions.items():
    for dtype in (torch.float32, torch.float64, torch.int64, torch.bfloat16, torch.float16):
        if op == dist.ReduceOp.AVG and not dtype.is_floating_point or \
                op == dist.ReduceOp.PRODUCT and dtype == torch.float16:   # overflows
            continue
        tensor = data(rank, dtype)
        dist.all_reduce(tensor, op=op)
        close(tensor, reference(everyone(dtype), axis=0))
for op, reference in ((dist.ReduceOp.BAND, np.bitwise_and), (dist.ReduceOp.BOR, np.bitwise_or),
                      (dist.ReduceOp.BXOR, np.bitwise_xor)):
    tensor = data(rank, torch.int32)
    dist.all_reduce(tensor, op=op)
    expected = reference.reduce(everyone(torch.int32).astype(np.int64), axis=0)
    assert (tensor.numpy() == expected).all()
# float8 reduces in float32; unsigned values above the signed range compare as unsigned
for dtype, op, reference, offset in ((torch.float8_e4m3fn, dist.ReduceOp.SUM, np.sum, 0),
                                     (torch.uint16, dist.ReduceOp.MAX, np.max, 40000)):
    values = [torch.tensor(data(r, torch.int64).numpy() + offset * (r % 2)).to(dtype)
              for r in range(size)]
    tensor = values[rank].clone()
    dist.all_reduce(tensor, op=op)
    exact = reference(np.stack([v.to(torch.float64).numpy() for v in values]), axis=0)
    rounded = torch.tensor(exact).to(dtype)            # float8 keeps 3 mantissa bits
    close(tensor, rounded.to(torch.float64).numpy())
flags = torch.tensor([rank == 0, False, True])
dist.all_reduce(flags)
assert flags.tolist() == [True, False, True]
complex_tensor = torch.ones(2, dtype=torch.complex64) * (1 + 1j) * (rank + 1)
dist.all_reduce(complex_tensor)
close(complex_tensor.real, [size * (size + 1) / 2] * 2)
strided = data(rank).t()                  # not contiguous: reduced through a copy
dist.all_reduce(strided)
close(strided, everyone().sum(0).T)
work = dist.all_reduce(tensor := data(rank), async_op=True)
assert work.wait() and work.is_completed()
close(tensor, everyone().sum(0))

tensor = data(rank)
dist.broadcast(tensor, src=size - 1)
close(tensor, everyone()[size - 1])
tensor = data(rank)
dist.reduce(tensor, dst=1, op=dist.ReduceOp.MAX)
if rank == 1:
    close(tensor, everyone().max(0))
outputs = [torch.zeros(2, 3) for _ in range(size)]
dist.all_gather(outputs, data(rank))
close(torch.stack(outputs), everyone())
output = torch.zeros(2 * size, 3, dtype=torch.bfloat16)
dist.all_gather_into_tensor(output, data(rank, torch.bfloat16))
close(output, everyone().reshape(-1, 3))
gathered = [torch.zeros(2, 3) for _ in range(size)] if rank == 0 else None
dist.gather(data(rank), gathered, dst=0)
if rank == 0:
    close(torch.stack(gathered), everyone())
tensor = torch.zeros(2, 3)
dist.scatter(tensor, [data(r) * 2 for r in range(size)] if rank == 0 else None, src=0)
close(tensor, everyone()[rank] * 2)
tensor = torch.zeros(2, 3)
dist.reduce_scatter(tensor, [data(rank) * (r + 1) for r in range(size)])
close(tensor, everyone().sum(0) * (rank + 1))
tensor = torch.zeros(2, 3)
dist.reduce_scatter_tensor(tensor, torch.cat([data(rank)] * size), op=dist.ReduceOp.AVG)
close(tensor, everyone().mean(0))
outputs = [torch.zeros(r + 1) for r in range(size)]
dist.all_to_all(outputs, [torch.full((rank + 1,), float(10 * rank + r)) for r in range(size)])
for r, out in enumerate(outputs):
    close(out, [10 * r + rank] * (r + 1))
output = torch.zeros(size, dtype=torch.int64)
dist.all_to_all_single(output, torch.arange(size) + 100 * rank)
assert output.tolist() == [100 * r + rank for r in range(size)]
dist.barrier()

peer = (rank + 1) % size
source = (rank - 1) % size
received = torch.zeros(3)
ops = [dist.P2POp(dist.isend, torch.full((3,), float(rank)), peer),
       dist.P2POp(dist.irecv, received, source)]
for work in dist.batch_isend_irecv(ops):
    work.wait()
close(received, [source] * 3)
if rank == 0:
    dist.send(torch.tensor([7.0, 8.0]), 1)
elif rank == 1:
    got = torch.zeros(2)
    assert dist.recv(got) == 0 and got.tolist() == [7.0, 8.0]

objects = [None] * size
dist.all_gather_object(objects, {"rank": rank})
assert objects == [{"rank": r} for r in range(size)]
payload = [rank, "x"]
dist.broadcast_object_list(payload, src=1)
assert payload == [1, "x"]
collected = [None] * size if rank == 0 else None
dist.gather_object(rank * 3, collected, dst=0)
assert rank != 0 or collected == [3 * r for r in range(size)]
out = [None]
dist.scatter_object_list(out, list(range(5, 5 + size)) if rank == 0 else None, src=0)
assert out == [5 + rank]

evens = dist.new_group([r for r in range(size) if r % 2 == 0])
tensor = torch.ones(1)
dist.all_reduce(tensor, group=evens)
if rank % 2 == 0:
    assert tensor.item() == (size + 1) // 2 and dist.get_rank(evens) == rank // 2
else:
    assert tensor.item() == 1 and dist.get_rank(evens) == -1
print(f"rank {rank}: collectives OK", flush=True)
dist.destroy_process_group()
