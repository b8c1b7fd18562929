"""A guided tour of glasstorch: PyTorch's design, in Python you can read.

Run it with ``python examples/tour.py``. Every line below is ordinary PyTorch code;
only the import differs. Each section points at the file that does the work.
"""
import glasstorch as torch


def section(title: str, where: str) -> None:
    print(f"\n=== {title}  ({where})")


# ------------------------------------------------------------------------------------
section("1. Tensors", "glasstorch/c10/tensor_impl.py, glasstorch/_tensor.py")
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(x)
print("dtype", x.dtype, "| shape", x.shape, "| device", x.device, "| layout", x.layout)
print(torch.zeros(2, 3, dtype=torch.int64))
print(torch.tensor([True, False]), torch.tensor(7))

# ------------------------------------------------------------------------------------
section("2. A tensor is storage + sizes + strides + offset", "glasstorch/c10/storage.py")
print("x.stride()", x.stride(), "| x.storage_offset()", x.storage_offset(),
      "| bytes in storage", x.untyped_storage().nbytes())
row = x[1]
print("x[1]        ->", row, "stride", row.stride(), "offset", row.storage_offset())
column = x[:, 1]
print("x[:, 1]     ->", column, "stride", column.stride(), "offset", column.storage_offset())
print("element [i, j] lives at offset + i*stride[0] + j*stride[1] of the storage")

# ------------------------------------------------------------------------------------
section("3. Views share storage; writes go through", "glasstorch/aten/native/shape/view.py")
y = x.t()
flat = x.view(-1)
tail = flat[2:]
storage = x.untyped_storage().data_ptr()
for name, view in (("x.t()", y), ("x.view(-1)", flat), ("x.view(-1)[2:]", tail)):
    print(f"{name:<15} size {tuple(view.shape)!s:<8} stride {view.stride()!s:<7} "
          f"offset {view.storage_offset()}  same storage: "
          f"{view.untyped_storage().data_ptr() == storage}  _base is x: {view._base is x}")
print("versions before a write: x", x._version, "| y", y._version)
y[0, 1] = 40.0                      # y[0, 1] is x[1, 0]
print("after y[0, 1] = 40:")
print(x)
print("versions after: x", x._version, "| y", y._version, "(one counter, shared by the views)")
print("y.is_contiguous()", y.is_contiguous(), "| x.is_contiguous()", x.is_contiguous())
copy = y.contiguous()               # copies only because y is not contiguous
print("y.contiguous() copies: new storage", copy.untyped_storage().data_ptr() != storage,
      "| x.contiguous() is x:", x.contiguous() is x)

# ------------------------------------------------------------------------------------
section("4. The dispatch trace: which keys and kernels a call visits",
        "glasstorch/aten/dispatcher.py")
w = torch.ones(2, 3, requires_grad=True)
with torch.dispatch_trace() as route:
    z = w.t().clone()
print(route)
print("Autograd records a backward node (w requires grad), then redispatches below it;")
print("views pass through ADInplaceOrView, which links them to their base and version counter.")

# ------------------------------------------------------------------------------------
section("5. One operator, one declaration", "glasstorch/aten/registry.py")
print(torch.ops.aten.transpose.int)
print()
print(torch.ops.aten.clone)
print("\ntorch.transpose.__doc__ comes from the same declaration:",
      (torch.transpose.__doc__ or "").strip().splitlines()[0:1])

# ------------------------------------------------------------------------------------
section("6. Meta tensors: shapes without data", "glasstorch/aten/meta/")
big = torch.empty(1000, 1000, 64, device="meta")
print(repr(big))
moved = big.transpose(0, 2)
print("transpose(0, 2):", tuple(moved.shape), "strides", moved.stride())
with torch.dispatch_trace() as route:
    copied = moved.clone()
print("clone of that:", tuple(copied.shape), "strides", copied.stride(),
      "(clone keeps the dense permuted layout, as torch does)")
print(route)
print("its storage claims", big.untyped_storage().nbytes(), "bytes, at data_ptr()",
      big.data_ptr(), "- a meta storage allocates nothing")
try:
    big.tolist()
except NotImplementedError as error:
    print("asking for the data:", type(error).__name__, "-", error)

# ------------------------------------------------------------------------------------
section("7. Type promotion, torch's lattice", "glasstorch/c10/promotion.py")
for a, b in ((torch.int32, torch.float16), (torch.uint8, torch.int8),
             (torch.bfloat16, torch.float16), (torch.bool, torch.int64)):
    print(f"promote_types({a}, {b}) = {torch.promote_types(a, b)}")
print("can_cast(float32 -> int32):", torch.can_cast(torch.float32, torch.int32))
small = torch.tensor([1, 2], dtype=torch.int8)
half = torch.tensor([1.0, 2.0], dtype=torch.float16)
print("Python numbers and 0-dim tensors can raise the category, not the width:")
print("  result_type(int8 tensor, 1000)             =", torch.result_type(small, 1000))
print("  result_type(int8 tensor, 1.5)              =", torch.result_type(small, 1.5))
print("  result_type(int8 tensor, int64 0-dim)      =", torch.result_type(small, torch.tensor(5)))
print("  result_type(float16 tensor, float32 0-dim) =", torch.result_type(half, torch.tensor(1.5)))
print("  result_type(int8 tensor, float32 0-dim)    =", torch.result_type(small, torch.tensor(1.5)))

# ------------------------------------------------------------------------------------
section("8. Printing options", "glasstorch/_tensor_str.py")
values = torch.tensor([3.14159265, 2.71828183, 0.001])
print(values)
torch.set_printoptions(precision=2)
print("precision=2:", values)
torch.set_printoptions(sci_mode=False)
print("sci_mode=False:", values)
torch.set_printoptions(profile="default")
print("long tensors are summarised:", torch.ones(2000))

# ------------------------------------------------------------------------------------
section("9. Autograd: formulas become a graph", "glasstorch/autograd/")
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
loss = ((x * w).exp() + x).sum()
print("loss:", loss)
print(torch.autograd.graph.format_graph(loss))
loss.backward()
print("x.grad:", x.grad, "\nw.grad:", w.grad)
first, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
second, = torch.autograd.grad(first.sum(), x)
print("d/dx x^3 =", first, " d2/dx2 =", second)
with torch.autograd.forward_ad.dual_level():
    dual = torch.autograd.forward_ad.make_dual(torch.tensor([1.0, 2.0]), torch.ones(2))
    print("forward mode, d/dt sin(x + t):", torch.autograd.forward_ad.unpack_dual(dual.sin()).tangent)

# ------------------------------------------------------------------------------------
section("10. Seeded random numbers, bit for bit torch's", "glasstorch/c10/generator.py")
torch.manual_seed(0)
print("torch.manual_seed(0); torch.rand(3):", torch.rand(3))
print("torch.randn(2, 2):", torch.randn(2, 2))
