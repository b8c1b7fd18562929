"""How tensors travel between the loader and its worker processes.

Worker queues pickle what they carry with `multiprocessing`'s ForkingPickler. A tensor
pickles its whole storage, so a small view of a large tensor (a row of a
`TensorDataset`, sent as it is when batching is off) would carry all of it, once per
sample. The reduction registered here sends such a view as a compact copy of just its
elements; a tensor that already spans its storage goes as it is. (torch moves tensors
into shared memory instead; glasstorch's buffers are NumPy arrays in process memory.)
"""
from multiprocessing.reduction import ForkingPickler

import glasstorch as torch


def _reduce_tensor(tensor: "torch.Tensor") -> tuple:
    """Pickle `tensor` for another process: as a compact copy if it is a view."""
    if tensor.untyped_storage().nbytes() > tensor.numel() * tensor.element_size():
        tensor = tensor.clone(memory_format=torch.contiguous_format)
    return tensor.__reduce_ex__(2)


ForkingPickler.register(torch.Tensor, _reduce_tensor)
