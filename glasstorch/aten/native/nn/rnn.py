"""Recurrent layers: `lstm`, `gru`, `rnn_tanh` and `rnn_relu`, each over a padded
sequence (``.input``) or a packed one (``.data``, with its ``batch_sizes``).

They are composites, as torch's CPU path is: layers of cells (`rnn_cells.py`) run over
time, stacked `num_layers` deep, both ways when bidirectional, with dropout between
layers (torch's `dropout`, so a seeded run draws torch's masks). Autograd records the
operators they are made of.

Note [One GEMM for the inputs]
A layer's input is known for every time step before the loop starts, so its product
with ``W_ih`` (and ``b_ih``) is one GEMM over the whole sequence; each step adds its row
block of that product to ``h W_hh^T + b_hh``. Only the recurrent product, which needs
the previous step's result, is left in the Python loop over time.
"""
from __future__ import annotations

from ...dispatcher import ops
from ...registry import composite
from .rnn_cells import gru_step, lstm_step, simple_step

_aten = ops.aten


# ----------------------------------------------------------------------------------
# Hidden states: a tensor, or the pair (h, c) of an LSTM
# ----------------------------------------------------------------------------------
def _output_of(state):
    return state[0] if isinstance(state, tuple) else state


def _rows(state, start: int, stop: int):
    """Batch rows ``start:stop`` of a state."""
    if isinstance(state, tuple):
        return tuple(_rows(part, start, stop) for part in state)
    return _aten.narrow.default.call(state, 0, start, stop - start)


def _cat_rows(states: list):
    if isinstance(states[0], tuple):
        return tuple(_cat_rows([state[i] for state in states]) for i in range(2))
    return _aten.cat.default.call(states, 0)


# ----------------------------------------------------------------------------------
# One layer, one direction, over time
# ----------------------------------------------------------------------------------
def _run_padded(step, input, state, weights, reverse: bool):
    """A ``(time, batch, features)`` input; returns the stacked outputs, final state."""
    projected = _aten.linear.default.call(input, weights[0], weights[2])
    steps = _aten.unbind.int.call(projected, 0)
    outputs = []
    for gates in (reversed(steps) if reverse else steps):
        state = step(gates, state, weights, True)
        outputs.append(_output_of(state))
    if reverse:
        outputs.reverse()
    return _aten.stack.default.call(outputs, 0), state


def _run_packed(step, data, batch_sizes: list, state, weights):
    """Forward over a packed sequence: the batch shrinks as sequences end; each ending
    sequence's final state is kept aside, and all are put back in batch order."""
    projected = _aten.linear.default.call(data, weights[0], weights[2])
    steps = _aten.split_with_sizes.default.call(projected, batch_sizes, 0)
    outputs, finished = [], []
    previous = batch_sizes[0]
    for gates, size in zip(steps, batch_sizes):
        if size < previous:
            finished.append(_rows(state, size, previous))
            state = _rows(state, 0, size)
        previous = size
        state = step(gates, state, weights, True)
        outputs.append(_output_of(state))
    finished.append(state)
    return _aten.cat.default.call(outputs, 0), _cat_rows(finished[::-1])


def _run_packed_reversed(step, data, batch_sizes: list, initial, weights):
    """Backward over a packed sequence: from the last step, the batch grows as longer
    sequences join, each starting from its own rows of the initial state."""
    projected = _aten.linear.default.call(data, weights[0], weights[2])
    steps = _aten.split_with_sizes.default.call(projected, batch_sizes, 0)
    outputs = []
    previous = batch_sizes[-1]
    state = _rows(initial, 0, previous)
    for gates, size in zip(reversed(steps), reversed(batch_sizes)):
        if size > previous:
            state = _cat_rows([state, _rows(initial, previous, size)])
        previous = size
        state = step(gates, state, weights, True)
        outputs.append(_output_of(state))
    return _aten.cat.default.call(outputs[::-1], 0), state


# ----------------------------------------------------------------------------------
# Layers stacked, both directions, dropout between layers
# ----------------------------------------------------------------------------------
def _split_weights(params, has_biases: bool, count: int, has_projections: bool) -> list:
    """The flat parameter list as one ``(w_ih, w_hh, b_ih, b_hh, w_hr)`` per layer and
    direction (None for what is absent). The count is checked as ATen's own kernels do
    (torch's float32 LSTM, run by oneDNN when it is enabled, words it differently)."""
    stride = (4 if has_biases else 2) + (1 if has_projections else 0)
    if len(params) != stride * count:
        raise RuntimeError("got an incorrect number of RNN parameters")
    groups = []
    for start in range(0, len(params), stride):
        group = list(params[start:start + stride])
        biases = group[2:4] if has_biases else [None, None]
        projection = group[-1] if has_projections else None
        groups.append((group[0], group[1], biases[0], biases[1], projection))
    return groups


def _direction(step, input, batch_sizes, state, weights, reverse: bool):
    if batch_sizes is None:
        return _run_padded(step, input, state, weights, reverse)
    if reverse:
        return _run_packed_reversed(step, input, batch_sizes, state, weights)
    return _run_packed(step, input, batch_sizes, state, weights)


def _stack(step, input, batch_sizes, states: list, weights: list, num_layers: int,
           dropout: float, train: bool, bidirectional: bool):
    """Every layer in turn; returns the last layer's output and the final states in
    (layer, direction) order."""
    directions = 2 if bidirectional else 1
    finals = []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            output, final = _direction(step, input, batch_sizes, states[index],
                                       weights[index], direction == 1)
            outputs.append(output)
            finals.append(final)
        input = outputs[0] if directions == 1 else \
            _aten.cat.default.call(outputs, outputs[0].dim() - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            input = _aten.dropout.default.call(input, dropout, True)
    return input, finals


def _recurrent(step, input, batch_sizes, states: list, params, has_biases: bool,
               num_layers: int, dropout: float, train: bool, bidirectional: bool,
               batch_first: bool = False, has_projections: bool = False):
    """The shared body of the eight layer operators."""
    count = num_layers * (2 if bidirectional else 1)
    is_lstm = step is lstm_step
    weights = _split_weights(params, has_biases, count, has_projections)
    if batch_first:
        input = _aten.transpose.int.call(input, 0, 1)
    if batch_sizes is None and input._size[0] == 0:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    sizes = None if batch_sizes is None else [int(size) for size in batch_sizes.tolist()]
    output, finals = _stack(step, input, sizes, states, weights, num_layers, dropout, train,
                            bidirectional)
    if batch_first and is_lstm:     # torch's LSTM returns a view, the others transpose
        output = _aten.transpose.int.call(output, 0, 1)     # in place
    elif batch_first:
        _aten.transpose_.default.call(output, 0, 1)
    return output, finals


def _simple_step(activation: str):
    def step(input, hidden, weights, projected):
        return simple_step(input, hidden, weights, projected, activation)
    return step


_STEPS = {"rnn_tanh": _simple_step("tanh"), "rnn_relu": _simple_step("relu"), "gru": gru_step}
_LAYER_ARGUMENTS = ("Tensor[] params, bool has_biases, int num_layers, float dropout, "
                    "bool train, bool bidirectional")


# ----------------------------------------------------------------------------------
# The operators
# ----------------------------------------------------------------------------------
def _lstm(input, batch_sizes, hx, params, *flags):
    if len(hx) != 2:
        raise RuntimeError("lstm expects two hidden states")
    has_projections = hx[0]._size[2] != hx[1]._size[2]
    pairs = list(zip(_aten.unbind.int.call(hx[0], 0), _aten.unbind.int.call(hx[1], 0)))
    output, finals = _recurrent(lstm_step, input, batch_sizes, pairs, params, *flags,
                                has_projections=has_projections)
    hidden = _aten.stack.default.call([final[0] for final in finals], 0)
    cell = _aten.stack.default.call([final[1] for final in finals], 0)
    return output, hidden, cell


@composite(f"lstm.input(Tensor input, Tensor[] hx, {_LAYER_ARGUMENTS}, bool batch_first) "
           "-> (Tensor, Tensor, Tensor)")
def lstm_input(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
               batch_first):
    """A multi-layer LSTM over a padded sequence (what `nn.LSTM` runs).

    Args:
        input (Tensor): ``(time, batch, input_size)`` (``(batch, time, ...)`` when
            `batch_first`).
        hx (list of Tensor): ``[h0, c0]``, ``(num_layers * directions, batch, size)``;
            h0's size is the projection's when the layers project.
        params (list of Tensor): per layer and direction ``w_ih, w_hh[, b_ih, b_hh]
            [, w_hr]``.
        has_biases, num_layers, dropout, train, bidirectional, batch_first: as the module.

    Returns:
        ``(output, h_n, c_n)``.

    Example::

        >>> weights = [torch.ones(4, 1), torch.ones(4, 1)]
        >>> output, h, c = torch.lstm(torch.ones(2, 1, 1), [torch.zeros(1, 1, 1)] * 2,
        ...                           weights, False, 1, 0.0, False, False, False)
        >>> output.shape
        torch.Size([2, 1, 1])
    """
    return _lstm(input, None, hx, params, has_biases, num_layers, dropout, train,
                 bidirectional, batch_first)


@composite(f"lstm.data(Tensor data, Tensor batch_sizes, Tensor[] hx, {_LAYER_ARGUMENTS}) "
           "-> (Tensor, Tensor, Tensor)")
def lstm_data(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
              bidirectional):
    """A multi-layer LSTM over a packed sequence (`data` and `batch_sizes` of a
    PackedSequence); the rest as `lstm.input`."""
    return _lstm(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
                 bidirectional)


def _declare_single_state(name: str, what: str) -> None:
    """``name.input`` and ``name.data`` for a layer whose state is one tensor."""
    step = _STEPS[name]

    def padded(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
               batch_first):
        output, finals = _recurrent(step, input, None, _aten.unbind.int.call(hx, 0), params,
                                    has_biases, num_layers, dropout, train, bidirectional,
                                    batch_first)
        return output, _aten.stack.default.call(finals, 0)

    def packed(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
               bidirectional):
        output, finals = _recurrent(step, data, batch_sizes, _aten.unbind.int.call(hx, 0),
                                    params, has_biases, num_layers, dropout, train,
                                    bidirectional)
        return output, _aten.stack.default.call(finals, 0)

    padded.__doc__ = f"""A multi-layer {what} over a padded sequence.

    Args:
        input (Tensor): ``(time, batch, input_size)`` (``(batch, time, ...)`` when
            `batch_first`).
        hx (Tensor): ``(num_layers * directions, batch, hidden_size)``.
        params (list of Tensor): per layer and direction ``w_ih, w_hh[, b_ih, b_hh]``.
        has_biases, num_layers, dropout, train, bidirectional, batch_first: as the module.

    Returns:
        ``(output, h_n)``.

    Example::

        >>> output, h = torch.{name}(torch.ones(2, 1, 1), torch.zeros(1, 1, 1),
        ...     [torch.ones({3 if name == "gru" else 1}, 1)] * 2, False, 1, 0.0, False,
        ...     False, False)
        >>> output.shape
        torch.Size([2, 1, 1])
    """
    packed.__doc__ = f"""A multi-layer {what} over a packed sequence (`data` and
    `batch_sizes` of a PackedSequence); the rest as `{name}.input`."""
    composite(f"{name}.input(Tensor input, Tensor hx, {_LAYER_ARGUMENTS}, bool batch_first) "
              "-> (Tensor, Tensor)")(padded)
    composite(f"{name}.data(Tensor data, Tensor batch_sizes, Tensor hx, {_LAYER_ARGUMENTS}) "
              "-> (Tensor, Tensor)")(packed)


_declare_single_state("gru", "GRU")
_declare_single_state("rnn_tanh", "Elman RNN (tanh)")
_declare_single_state("rnn_relu", "Elman RNN (ReLU)")
