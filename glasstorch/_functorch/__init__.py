"""functorch's machinery: batched tensors and their rules (vmap), and the function
transforms (grad, vjp, jvp, jacrev, jacfwd, hessian). `torch.func` is its public face.

Loaded on first use of `torch.func` or `torch.vmap`: importing it installs the
FuncTorchBatched and FuncTorchVmapMode kernels, which no call meets before a vmap runs.
"""
