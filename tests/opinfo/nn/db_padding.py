"""OpInfo entries for padding (`aten/native/nn/padding.py`, `padding_modes.py`):
constant_pad_nd, pad (torch.nn.functional.pad: constant, reflect, replicate, circular),
reflection_pad{1,2,3}d and replication_pad{1,2,3}d with their backward operators, and
_pad_circular."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import ALL_DTYPES, FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

CONSTANT = (((2, 3), (1, 2)), ((2, 3, 4), (-1, 2, 0, -2)), ((3,), (0, 0)), ((2, 0), (1, 1)),
            ((2, 3), (1, 1, 2, 0)))
NON_CONSTANT = (((2, 5), (2, 3)), ((1, 2, 5), (4, 4)), ((2, 3, 4, 5), (1, 2, 2, 1)),
                ((1, 2, 3, 4, 3), (1, 1, 2, 2, 1, 1)))


def _np_pad(x, pad, mode="constant", value=None):
    widths = [(0, 0)] * x.ndim
    for i in range(len(pad) // 2):
        widths[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    crop = tuple(slice(max(-a, 0), x.shape[d] - max(-b, 0)) for d, (a, b) in enumerate(widths))
    x = x[crop]
    widths = [(max(a, 0), max(b, 0)) for a, b in widths]
    if mode == "constant":
        fill = np.array(0 if value is None else value).astype(x.dtype)
        return np.pad(x, widths, constant_values=fill)
    return np.pad(x, widths, mode={"reflect": "reflect", "replicate": "edge",
                                   "circular": "wrap"}[mode])


def sample_constant_pad_nd(dtype):
    for shape, pad in CONSTANT:
        yield SampleInput(make_tensor(shape, dtype), pad, 1)
    yield SampleInput(make_tensor((3, 4), dtype, "transposed"), (1, 1, 1, 1))


def sample_pad(dtype):
    for shape, pad in CONSTANT:
        yield SampleInput(make_tensor(shape, dtype), pad)
    if dtype.is_floating_point:
        yield SampleInput(make_tensor((2, 3), dtype), (1, 1), value=2.5)
        for mode in ("reflect", "replicate", "circular"):
            for shape, pad in NON_CONSTANT:
                yield SampleInput(make_tensor(shape, dtype), pad, mode=mode)


def errors_constant_pad_nd():
    x = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput(x, (1, 2, 3)), RuntimeError,
                     r"^Length of pad must be even but instead it equals 3$")
    yield ErrorInput(SampleInput(x, (1, 1, 1, 1, 1, 1)), RuntimeError,
                     r"^Length of pad should be no more than twice the number of dimensions of "
                     r"the input\. Pad length is 6while the input has 2dimensions\.$")


def errors_pad():
    x = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput(x, (1, 2, 3)), RuntimeError,
                     r"^Padding length must be divisible by 2$")
    yield ErrorInput(SampleInput(x, (1, 1, 1, 1, 1, 1)), RuntimeError,
                     r"^Padding length should be less than or equal to two times the input "
                     r"dimension but got padding length 6 and input of dimension 2$")
    yield ErrorInput(SampleInput(x, (1, 1), mode="reflect", value=1.0), RuntimeError,
                     r"^Padding mode \"reflect\" doesn't take in value argument$")
    yield ErrorInput(SampleInput(x, (3, 3), mode="reflect"), RuntimeError,
                     r"^Argument #4: Padding size should be less than the corresponding input "
                     r"dimension, but got: padding \(3, 3\) at dimension 1 of input \[2, 3\]$")
    yield ErrorInput(SampleInput(x, (4, 4), mode="circular"), RuntimeError,
                     r"^Padding value causes wrapping around more than once\.$")
    yield ErrorInput(SampleInput(x, (1, 1), mode="foo"), NotImplementedError,
                     r"^Unrecognised padding mode foo$")
    yield ErrorInput(SampleInput(make_tensor((4,), gt.float32), (1, 1), mode="replicate"),
                     NotImplementedError, r"^Padding size 2 is not supported for 1D input "
                     r"tensor\.\nSupported combinations for non-constant padding:\n")


# ----- reflection / replication / circular --------------------------------------------
MODE_SHAPES = {1: (((2, 5), (2, 3)), ((3, 2, 6), (-1, 3)), ((0, 2, 4), (1, 1))),
               2: (((2, 4, 5), (1, 2, 3, 0)), ((2, 1, 3, 4), (-1, 2, 2, -1))),
               3: (((1, 3, 4, 5), (1, 2, 0, 1, 2, 1)), ((2, 1, 3, 3, 4), (1, 0, -1, 2, 1, 1)))}
NUMPY_MODES = {"reflection": "reflect", "replication": "edge", "circular": "wrap"}


def _np_mode_pad(x, padding, kind):
    """np.pad of the positive amounts, crops for the negative ones (circular crops first)."""
    widths = [(0, 0)] * x.ndim
    for i in range(len(padding) // 2):
        widths[x.ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    positive = [(max(a, 0), max(b, 0)) for a, b in widths]

    def crop(y, offsets):
        return y[tuple(slice(max(-a, 0), y.shape[d] - max(-b, 0))
                       for d, (a, b) in enumerate(offsets))]
    if kind == "circular":
        return np.pad(crop(x, widths), positive, mode="wrap")
    return crop(np.pad(x, positive, mode=NUMPY_MODES[kind]), widths)


def _np_mode_backward(grad, x, padding, kind):
    """The adjoint of the gather: each input position sums the outputs reading it."""
    sources = _np_mode_pad(np.arange(x.size).reshape(x.shape), padding, kind)
    # float16/bfloat16 terms are added one by one in their dtype, as torch's kernel does
    exact = grad.dtype.itemsize > 2
    total = np.zeros(x.size, np.float64 if exact else grad.dtype)
    np.add.at(total, sources.ravel(), grad.astype(np.float64).ravel() if exact else grad.ravel())
    return total.reshape(x.shape).astype(grad.dtype)


def _mode_samples(k, backward=False):
    def samples(dtype):
        for shape, padding in MODE_SHAPES[k]:
            x = make_tensor(shape, dtype)
            if not backward:
                yield SampleInput(x, padding)
                continue
            out_shape = tuple(n + (padding[2 * (len(shape) - 1 - d)] +
                                   padding[2 * (len(shape) - 1 - d) + 1]
                                   if len(shape) - 1 - d < k else 0)
                              for d, n in enumerate(shape))
            yield SampleInput(make_tensor(out_shape, dtype, seed=2), x, padding)
    return samples


META_RANK = ("padding: torch's meta function reads the padded dims before it checks the rank "
             "(an IndexError about a dim out of range); glasstorch raises the CPU kernel's "
             "message on meta too")


def _mode_errors(kind, k):
    def errors():
        flat = make_tensor((3,) * k, gt.float32)
        yield ErrorInput(SampleInput(flat, (1,) * (2 * k)), RuntimeError,
                         rf"^Expected {k + 1}D or {k + 2}D \(batch mode\) tensor with possibly 0 "
                         rf"batch size and other non-zero dimensions for input, but got: ",
                         known_bug_on_meta=META_RANK)
        x = make_tensor((1,) + (3,) * k, gt.float32)
        if kind == "reflection":
            yield ErrorInput(SampleInput(x, (3, 1) + (1,) * (2 * k - 2)), RuntimeError,
                             r"^Argument #4: Padding size should be less than the corresponding "
                             rf"input dimension, but got: padding \(3, 1\) at dimension {k} of "
                             rf"input \[1(, 3){{{k}}}\]$")
        if k == 1:
            yield ErrorInput(SampleInput(x, (-2, -2)), RuntimeError,
                             r"^input \(W: 3\) is too small\. Calculated output W: -1$")
    return errors


def _mode_ops():
    entries = []
    for kind in ("reflection", "replication"):
        for k in (1, 2, 3):
            name = f"{kind}_pad{k}d"
            entries.append(OpInfo(
                name, variants=(f"ops.aten.{name}",), dtypes=FLOATING + (gt.int64,),
                ref=lambda x, padding, kind=kind: _np_mode_pad(x, padding, kind),
                sample_inputs=_mode_samples(k), error_inputs=_mode_errors(kind, k),
                out=f"ops.aten.{name}"))
            entries.append(OpInfo(
                f"{name}_backward", variants=(f"ops.aten.{name}_backward",), dtypes=FLOATING,
                ref=lambda g, x, padding, kind=kind: _np_mode_backward(g, x, padding, kind),
                sample_inputs=_mode_samples(k, backward=True), out=f"ops.aten.{name}_backward",
                marks=GRAD_INPUT_OUT))
    return entries


GRAD_INPUT_OUT = {test: pytest.mark.skip(reason="torch names this out= argument grad_input "
                                               "(torch.ops.aten only)")
                  for test in ("test_out", "test_out_matches_torch")}


def sample_pad_circular(dtype):
    for k in (1, 2, 3):
        for shape, padding in MODE_SHAPES[k]:
            if 0 not in shape:
                yield SampleInput(make_tensor(shape, dtype), padding)


OPS = [
    OpInfo("constant_pad_nd", variants=("constant_pad_nd",),
           ref=lambda x, pad, value=0: _np_pad(x, pad, value=value), dtypes=ALL_DTYPES,
           sample_inputs=sample_constant_pad_nd, error_inputs=errors_constant_pad_nd),
    OpInfo("pad", variants=("nn.functional.pad",), ref=_np_pad, dtypes=FLOATING + (gt.int64,),
           sample_inputs=sample_pad, error_inputs=errors_pad),
    OpInfo("_pad_circular", variants=("ops.aten._pad_circular",), dtypes=FLOATING,
           ref=lambda x, pad: _np_mode_pad(x, pad, "circular"),
           sample_inputs=sample_pad_circular),
    *_mode_ops(),
]
