"""OpInfo entry for `segment_reduce` (`aten/native/reduction/segment.py`)."""
import numpy as np

import glasstorch as gt

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

_IDENTITY = {"sum": 0.0, "prod": 1.0, "mean": np.nan, "max": -np.inf, "min": np.inf}
_FOLD = {"sum": np.sum, "prod": np.prod, "mean": np.sum, "max": np.max, "min": np.min}


def _segment_reduce(data, reduce, lengths=None, indices=None, offsets=None, axis=0,
                    unsafe=False, initial=None):
    """One segment at a time, along `axis` (1-D lengths or offsets)."""
    name = {"amax": "max", "amin": "min"}.get(reduce, reduce)
    if offsets is None:
        offsets = np.concatenate([[0], np.cumsum(lengths)])
    moved = np.moveaxis(data.astype(np.float64), axis, 0)
    parts = []
    for start, end in zip(offsets[:-1], offsets[1:]):
        part = moved[start:end]
        if part.shape[0] == 0:
            value = np.full(part.shape[1:], _IDENTITY[name] if initial is None else initial)
        else:
            value = _FOLD[name](part, axis=0)
            if initial is not None:
                value = {"max": np.maximum, "min": np.minimum,
                         "prod": np.multiply}.get(name, np.add)(value, initial)
            value = value / part.shape[0] if name == "mean" else value
        parts.append(value)
    return np.moveaxis(np.stack(parts), 0, axis).astype(data.dtype)


def sample_segment_reduce(dtype):
    lengths = gt.tensor([2, 0, 3, 1])
    for reduce in ("sum", "prod", "mean", "max", "amin"):
        yield SampleInput(make_tensor((6,), dtype), reduce, lengths=lengths)
        yield SampleInput(make_tensor((6, 2), dtype), reduce, lengths=lengths, initial=0.5)
        yield SampleInput(make_tensor((6, 3), dtype, "transposed"), reduce,
                          offsets=gt.tensor([0, 2, 2, 6]))


META = "segment_reduce: torch's meta function checks less, in other words"


def errors_segment_reduce():
    x = make_tensor((6,), gt.float32)
    lengths = gt.tensor([2, 4])
    yield ErrorInput(SampleInput(x, "foo", lengths=lengths), RuntimeError,
                     r"^reduce argument must be either sum, prod, mean, amax or amin, got foo$",
                     known_bug_on_meta=META)
    yield ErrorInput(SampleInput(x, "sum"), RuntimeError,
                     r"^segment_reduce\(\): Either lengths or offsets must be defined\.$")
    yield ErrorInput(SampleInput(x, "sum", lengths=lengths, indices=lengths), RuntimeError,
                     r"^segment_reduce\(\): indices based reduction is not supported yet\.$",
                     known_bug_on_meta=META)
    yield ErrorInput(SampleInput(x, "sum", lengths=gt.tensor([2, 2])), RuntimeError,
                     r"^segment_reduce\(\): Expected all rows of lengths along axis to sum to "
                     r"data\.size\(lengths\.dim\(\)-1\) when !unsafe\.$")
    yield ErrorInput(SampleInput(x, "sum", lengths=gt.tensor([7, -1])), RuntimeError,
                     r"^lengths contains negative value!$")
    yield ErrorInput(SampleInput(x.long(), "sum", lengths=lengths), NotImplementedError,
                     r"^\"_segment_reduce_cpu\" not implemented for 'Long'$")
    yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32), "sum",
                                 lengths=gt.tensor([1, 2]), axis=1), RuntimeError,
                     r"^segment_reduce\(\): Expected axis to be the last dimension of lengths "
                     r"but got 1\.$", known_bug_on_meta=META)


OPS = [
    OpInfo("segment_reduce", variants=("segment_reduce",), ref=_segment_reduce,
           dtypes=FLOATING, sample_inputs=sample_segment_reduce,
           error_inputs=errors_segment_reduce, covers=("_segment_reduce_backward",)),
]
