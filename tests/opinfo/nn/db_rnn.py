"""OpInfo entries for `aten/native/nn/rnn_cells.py`, `rnn.py` and `rnn_packing.py`: the
recurrent cells, the layers over padded sequences (the packed ``.data`` overloads are held
to torch by tests/nn/test_rnn.py), and the packing kernels."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor

FLOATS = (gt.float32, gt.float64)
GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}


# ----- NumPy references --------------------------------------------------------------
def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _affine(x, w, b):
    return x @ w.T + (0 if b is None else b)


def _np_simple_cell(activation):
    def cell(x, h, w_ih, w_hh, b_ih=None, b_hh=None):
        return activation(_affine(x, w_ih, b_ih) + _affine(h, w_hh, b_hh))
    return cell


def _np_lstm_cell(x, hx, w_ih, w_hh, b_ih=None, b_hh=None, w_hr=None):
    h, c = hx
    i, f, g, o = np.split(_affine(x, w_ih, b_ih) + _affine(h, w_hh, b_hh), 4, axis=1)
    c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
    h = _sigmoid(o) * np.tanh(c)
    return (h if w_hr is None else h @ w_hr.T), c


def _np_gru_cell(x, h, w_ih, w_hh, b_ih=None, b_hh=None):
    xr, xz, xn = np.split(_affine(x, w_ih, b_ih), 3, axis=1)
    hr, hz, hn = np.split(_affine(h, w_hh, b_hh), 3, axis=1)
    r, z = _sigmoid(xr + hr), _sigmoid(xz + hz)
    n = np.tanh(xn + r * hn)
    return (1 - z) * n + z * h


_CELLS = {"lstm": _np_lstm_cell, "gru": _np_gru_cell,
          "rnn_tanh": _np_simple_cell(np.tanh),
          "rnn_relu": _np_simple_cell(lambda x: np.maximum(x, 0))}


def _np_direction(kind, x, state, weights, reverse):
    outputs = []
    for t in (range(len(x) - 1, -1, -1) if reverse else range(len(x))):
        state = _CELLS[kind](x[t], state, *weights)
        outputs.append(state[0] if kind == "lstm" else state)
    return np.stack(outputs[::-1] if reverse else outputs), state


def _np_layers(kind):
    """The reference of a layer operator (no dropout): cells over time, stacked."""
    def layers(x, hx, params, has_biases, num_layers, dropout, train, bidirectional,
               batch_first):
        x = x.swapaxes(0, 1) if batch_first else x
        per = 4 if has_biases else 2
        directions = 2 if bidirectional else 1
        finals = []
        for layer in range(num_layers):
            outputs = []
            for d in range(directions):
                k = layer * directions + d
                w = list(params[k * per:(k + 1) * per])
                state = (hx[0][k], hx[1][k]) if kind == "lstm" else hx[k]
                output, final = _np_direction(kind, x, state, w, d == 1)
                outputs.append(output)
                finals.append(final)
            x = np.concatenate(outputs, -1)
        x = x.swapaxes(0, 1) if batch_first else x
        if kind == "lstm":
            return x, np.stack([f[0] for f in finals]), np.stack([f[1] for f in finals])
        return x, np.stack(finals)
    return layers


def _np_layers_packed(kind):
    """The reference over a packed sequence: each sequence alone through the padded
    reference, its outputs put back in packed order."""
    padded_reference = _np_layers(kind)

    def layers(data, batch_sizes, hx, params, *flags):
        padded, lengths = _np_unpack(data, batch_sizes, False, 0.0, len(batch_sizes))
        states = list(hx) if kind == "lstm" else [hx]
        results = []
        for b, length in enumerate(lengths):
            state = [s[:, b:b + 1] for s in states]
            results.append(padded_reference(padded[:length, b:b + 1],
                                            state if kind == "lstm" else state[0], params,
                                            *flags, False))
        output = np.concatenate([results[b][0][t] for t, size in enumerate(batch_sizes)
                                 for b in range(size)])
        finals = [np.concatenate([r[i] for r in results], 1) for i in range(1, len(results[0]))]
        return (output, *finals)
    return layers


def _np_pack(x, lengths, batch_first):
    x = x.swapaxes(0, 1) if batch_first else x
    sizes = [int((lengths > t).sum()) for t in range(int(lengths[0]))]
    return np.concatenate([x[t, :size] for t, size in enumerate(sizes)]), np.array(sizes)


def _np_unpack(data, batch_sizes, batch_first, padding_value, total_length):
    batch = int(batch_sizes[0])
    steps = max(total_length, len(batch_sizes))
    out = np.full((steps, batch) + data.shape[1:], padding_value, data.dtype)
    start = 0
    for t, size in enumerate(batch_sizes):
        out[t, :size] = data[start:start + size]
        start += size
    lengths = np.array([(batch_sizes > b).sum() for b in range(batch)])
    return (out.swapaxes(0, 1) if batch_first else out), lengths


def _np_pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    longest = max(len(s) for s in sequences)
    out = np.full((len(sequences), longest) + sequences[0].shape[1:], padding_value,
                  sequences[0].dtype)
    for b, s in enumerate(sequences):
        if padding_side == "right":
            out[b, :len(s)] = s
        else:
            out[b, longest - len(s):] = s
    return out if batch_first else out.swapaxes(0, 1)


# ----- samples -----------------------------------------------------------------------
def _cell_weights(kind, dtype, inputs=3, hidden=2, seed=10):
    rows = GATES[kind] * hidden
    return [make_tensor((rows, inputs), dtype, seed=seed), make_tensor((rows, hidden), dtype,
                                                                       seed=seed + 1),
            make_tensor((rows,), dtype, seed=seed + 2), make_tensor((rows,), dtype,
                                                                   seed=seed + 3)]


def _sample_cell(kind):
    def samples(dtype):
        x, h, c = (make_tensor(shape, dtype, seed=s) for s, shape in
                   ((1, (2, 3)), (2, (2, 2)), (3, (2, 2))))
        state = [h, c] if kind == "lstm" else h
        weights = _cell_weights(kind, dtype)
        yield SampleInput(x, state, *weights)
        yield SampleInput(x, state, *weights[:2])
        yield SampleInput(make_tensor((2, 3), dtype, "transposed", seed=4), state, *weights)
    return samples


_LAYER_CASES = ((1, False, False, True), (2, True, True, False))    # layers, bi, bf, bias


def _layer_arguments(kind, dtype, layers, bidirectional, bias, batch=2):
    """The state and flat parameters of a layer stack (input size 3, hidden size 2)."""
    directions = 2 if bidirectional else 1
    params = []
    for layer in range(layers):
        for d in range(directions):
            inputs = 3 if layer == 0 else 2 * directions
            params += _cell_weights(kind, dtype, inputs, 2, 20 + 4 * layer + d)[
                :4 if bias else 2]
    h = make_tensor((layers * directions, batch, 2), dtype, seed=5)
    state = [h, make_tensor(h.shape, dtype, seed=6)] if kind == "lstm" else h
    return state, params


def _sample_layers(kind):
    def samples(dtype):
        for layers, bidirectional, batch_first, bias in _LAYER_CASES:
            state, params = _layer_arguments(kind, dtype, layers, bidirectional, bias)
            x = make_tensor((2, 3, 3) if batch_first else (3, 2, 3), dtype, seed=7)
            yield SampleInput(x, state, params, bias, layers, 0.0, False, bidirectional,
                              batch_first)
    return samples


def _sample_layers_packed(kind):
    def samples(dtype):
        batch_sizes = gt.tensor([3, 2, 1])
        for layers, bidirectional, _, bias in _LAYER_CASES:
            state, params = _layer_arguments(kind, dtype, layers, bidirectional, bias, 3)
            yield SampleInput(make_tensor((6, 3), dtype, seed=7), batch_sizes, state, params,
                              bias, layers, 0.0, False, bidirectional)
    return samples


def _errors_cell(kind):
    def errors():
        weights = _cell_weights(kind, gt.float32)
        h = make_tensor((2, 2), gt.float32)
        state = [h, h] if kind == "lstm" else h
        yield ErrorInput(SampleInput(make_tensor((2, 4), gt.float32), state, *weights),
                         RuntimeError, r"^input has inconsistent input_size: got 4 expected 3$")
        wide = make_tensor((3, 2), gt.float32)
        bad = [wide, h] if kind == "lstm" else wide
        yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32), bad, *weights),
                         RuntimeError, r"^Input batch size 2 doesn't match hidden0 batch size 3$")
        if kind == "lstm":
            yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32), [h], *weights),
                             RuntimeError, r"^lstm_cell expects two hidden states$")
    return errors


def errors_lstm():
    x, h = make_tensor((3, 2, 3), gt.float32), make_tensor((1, 2, 2), gt.float32)
    params = _cell_weights("lstm", gt.float32)
    yield ErrorInput(SampleInput(x, [h], params, True, 1, 0.0, False, False, False),
                     RuntimeError, r"^lstm expects two hidden states$")
    yield ErrorInput(SampleInput(x, [h, h], params[:3], True, 1, 0.0, False, False, False),
                     RuntimeError, r"^got an incorrect number of RNN parameters$")


def sample_pack(dtype):
    yield SampleInput(make_tensor((4, 3, 2), dtype), gt.tensor([4, 2, 1]), False)
    yield SampleInput(make_tensor((3, 4), dtype), gt.tensor([4, 4, 3]), True)


def errors_pack():
    x = make_tensor((4, 3, 2), gt.float32)
    yield ErrorInput(SampleInput(x, gt.tensor([2, 3, 1]), False), RuntimeError,
                     r"^`lengths` array must be sorted in decreasing order when "
                     r"`enforce_sorted` is True")
    yield ErrorInput(SampleInput(x, gt.tensor([4, 3, 0]), False), RuntimeError,
                     r"^Length of all samples has to be greater than 0")
    yield ErrorInput(SampleInput(x, gt.tensor([4, 3]), False), RuntimeError,
                     r"^Expected `len\(lengths\)` to be equal to batch_size, but got 2 "
                     r"\(batch_size=3\)$")
    yield ErrorInput(SampleInput(x, gt.tensor([4, 3, 1], dtype=gt.int32), False), RuntimeError,
                     r"^'lengths' argument should be a 1D CPU int64 tensor, but got 1D cpu Int "
                     r"tensor$")


def sample_unpack(dtype):
    yield SampleInput(make_tensor((7, 2), dtype), gt.tensor([3, 2, 1, 1]), False, -1.0, 4)
    yield SampleInput(make_tensor((5,), dtype), gt.tensor([2, 2, 1]), True, 0.0, 5)


def sample_pad_sequence(dtype):
    sequences = [make_tensor((3, 2), dtype, seed=1), make_tensor((1, 2), dtype, seed=2),
                 make_tensor((4, 2), dtype, seed=3)]
    yield SampleInput(sequences)
    yield SampleInput(sequences, True, 2.5, "left")


def errors_pad_sequence():
    yield ErrorInput(SampleInput([]), RuntimeError, r"^received an empty list of sequences$")
    yield ErrorInput(SampleInput([make_tensor((2,), gt.float32)], False, 0.0, "up"),
                     RuntimeError, r"^Expected padding_side to be one of left or right, but "
                     r"got up\.$")
    yield ErrorInput(SampleInput([make_tensor((2, 3), gt.float32), make_tensor((3, 2),
                                                                              gt.float32)]),
                     RuntimeError, r"^The size of tensor a \(3\) must match the size of tensor "
                     r"b \(2\) at non-singleton dimension 1$")


DATA_DEPENDENT = pytest.mark.skip(reason="the sizes come from the values of lengths or "
                                  "batch_sizes: on meta torch refuses them as well")

OPS = [
    *(OpInfo(f"{kind}_cell", variants=(f"{kind}_cell",), ref=_CELLS[kind], dtypes=FLOATS,
             sample_inputs=_sample_cell(kind), error_inputs=_errors_cell(kind))
      for kind in GATES),
    *(OpInfo(f"{kind}.input", variants=(kind,), ref=_np_layers(kind), dtypes=FLOATS,
             sample_inputs=_sample_layers(kind),
             error_inputs=errors_lstm if kind == "lstm" else lambda: ())
      for kind in GATES),
    *(OpInfo(f"{kind}.data", variants=(kind,), ref=_np_layers_packed(kind), dtypes=FLOATS,
             sample_inputs=_sample_layers_packed(kind), marks={"test_meta": DATA_DEPENDENT})
      for kind in GATES),
    OpInfo("_pack_padded_sequence", variants=("_pack_padded_sequence",), ref=_np_pack,
           dtypes=FLOATS, sample_inputs=sample_pack, error_inputs=errors_pack,
           marks={"test_meta": DATA_DEPENDENT}),
    OpInfo("_pad_packed_sequence", variants=("_pad_packed_sequence",), ref=_np_unpack,
           dtypes=FLOATS, sample_inputs=sample_unpack, marks={"test_meta": DATA_DEPENDENT}),
    OpInfo("pad_sequence", variants=("nn.utils.rnn.pad_sequence",), ref=_np_pad_sequence,
           dtypes=FLOATS, sample_inputs=sample_pad_sequence,
           error_inputs=errors_pad_sequence),
]
