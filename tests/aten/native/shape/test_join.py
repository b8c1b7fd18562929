"""The Python-level joining functions torch writes in Python (torch/functional.py):
variadic meshgrid / broadcast_tensors / block_diag / cartesian_prod / atleast_nd,
broadcast_shapes and unravel_index; resize_'s storage rules; composites with out=.

Each case runs in glasstorch and, when torch is importable, in torch too: results
(values, dtype, shape, strides) or errors (type and message) must agree.
"""
import warnings

import numpy as np
import pytest

import glasstorch as gt


def _t(module, values, dtype="float32"):
    return module.tensor(values, dtype=getattr(module, dtype))


def _outcome(call, module):
    try:
        result = call(module)
    except Exception as error:          # noqa: BLE001 - the error is the outcome
        return f"{type(error).__name__}: {error}"
    return _describe(result)


def _describe(result):
    if isinstance(result, (tuple, list)):
        return type(result).__name__, [_describe(r) for r in result]
    if hasattr(result, "stride"):
        return (str(result.dtype), tuple(result.shape), result.stride(),
                np.asarray(result.tolist()).tolist())
    return result


CALLS = {
    "meshgrid ij": lambda m: m.meshgrid(_t(m, [1, 2, 3]), _t(m, [4, 5]), indexing="ij"),
    "meshgrid xy list": lambda m: m.meshgrid([_t(m, [1, 2, 3]), _t(m, [4, 5])],
                                             indexing="xy"),
    "meshgrid one": lambda m: m.meshgrid(_t(m, [1, 2]), indexing="xy"),
    "meshgrid dtypes": lambda m: m.meshgrid(_t(m, [1]), _t(m, [1], "float64"), indexing="ij"),
    "broadcast_tensors": lambda m: m.broadcast_tensors(_t(m, [1, 2]), _t(m, [[3], [4]])),
    "broadcast_tensors none": lambda m: m.broadcast_tensors(),
    "broadcast_tensors list": lambda m: m.broadcast_tensors([_t(m, [1])]),
    "block_diag": lambda m: m.block_diag(_t(m, [[1, 2]]), _t(m, 3, "int64"), _t(m, [4, 5])),
    "block_diag none": lambda m: m.block_diag(),
    "cartesian_prod": lambda m: m.cartesian_prod(_t(m, [1, 2]), _t(m, [3, 4, 5])),
    "atleast_1d none": lambda m: m.atleast_1d(),
    "atleast_2d one": lambda m: m.atleast_2d(_t(m, 1.5)),
    "atleast_3d many": lambda m: m.atleast_3d(_t(m, 1.5), _t(m, [1, 2])),
    "atleast_1d list": lambda m: m.atleast_1d([_t(m, 1.5)]),
    "broadcast_shapes": lambda m: m.broadcast_shapes((2, 1), (3,), None, 1),
    "broadcast_shapes empty": lambda m: m.broadcast_shapes(),
    "broadcast_shapes mismatch": lambda m: m.broadcast_shapes((2, 3), [1, 3], (4,)),
    "broadcast_shapes negative": lambda m: m.broadcast_shapes((2, -1)),
    "broadcast_shapes float": lambda m: m.broadcast_shapes(2.0),
    "unravel_index": lambda m: m.unravel_index(_t(m, [4, 5, -1], "int64"), (2, 3)),
    "unravel_index int": lambda m: m.unravel_index(_t(m, 4, "int32"), 5),
    "unravel_index float": lambda m: m.unravel_index(_t(m, [4.0]), 3),
    "unravel_index negative shape": lambda m: m.unravel_index(_t(m, [4], "int64"), (2, -1)),
    "unravel_index float shape": lambda m: m.unravel_index(_t(m, [4], "int64"), (2, 1.0)),
    "hstack out": lambda m: m.hstack([_t(m, [1, 2]), _t(m, [3])], out=m.empty(0)),
    "concat out": lambda m: m.concat([_t(m, [[1]]), _t(m, [[2]])], 1, out=m.empty(0)),
}


@pytest.mark.parametrize("name", CALLS)
def test_python_functions(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = _outcome(CALLS[name], gt)
        torch = pytest.importorskip("torch")
        theirs = _outcome(CALLS[name], torch)
    assert mine == theirs


def test_meshgrid_warns_without_indexing():
    from glasstorch.aten.native.shape import shape
    shape._WARNED.discard("torch.meshgrid: in an upcoming release, it will be required to "
                          "pass the indexing argument.")
    with pytest.warns(UserWarning, match="it will be required to pass the indexing argument"):
        gt.meshgrid(gt.ones(2), gt.ones(3))


def test_composite_out_overload():
    """`composite(..., out=True)` declares name.out; the body hands `out` on."""
    out = gt.empty(0)
    assert gt.ops.aten.hstack.out([gt.ones(2), gt.zeros(1)], out=out) is out
    assert out.tolist() == [1.0, 1.0, 0.0] and out._version > 0


def test_resize_keeps_prefix_and_storage():
    x = gt.arange(6.0)
    view = x[:]
    x.resize_(2)                        # shrinking keeps the storage
    assert x.tolist() == [0.0, 1.0] and x.untyped_storage().nbytes() == 24
    x.resize_(2, 3)                     # growing back shows the old values
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    x.resize_(3, 3)                     # growing past the storage keeps the prefix
    assert x[:2].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert x.untyped_storage().nbytes() == 36 and view.tolist() == [0.0, 1, 2, 3, 4, 5]
    offset = gt.arange(6.0)[2:]
    offset.resize_(2, 2)                # from its storage offset on
    assert offset.tolist() == [[2.0, 3.0], [4.0, 5.0]]


def test_resize_refuses_grad():
    with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
        gt.ones(2, requires_grad=True).resize_(3)


def test_cat_out_refuses_overlap_and_keeps_input():
    x = gt.ones(2, 3)
    with pytest.raises(RuntimeError, match="refer to a single memory location"):
        gt.cat([x, x], out=x)
    assert x.shape == (2, 3)
