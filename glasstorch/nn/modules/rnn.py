"""Recurrent layers: RNN (tanh or ReLU), LSTM (optionally projected) and GRU, over
padded or packed sequences; the one-step cells are in `rnn_cells.py`.

A layer keeps its parameters under torch's names (``weight_ih_l0``, ``bias_hh_l1_reverse``,
``weight_hr_l0``) and, in `_flat_weights`, the flat list the operators take (`torch.lstm`,
`torch.gru`, `torch.rnn_tanh`, `torch.rnn_relu` of `aten/native/nn/rnn.py`), refreshed
whenever a parameter is reassigned or the module converted. Every parameter starts
uniform in ``±1/sqrt(hidden_size)``, drawn in registration order, as torch's.
"""
from __future__ import annotations

import math
import numbers
import warnings
import weakref

import glasstorch as torch
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module
from .rnn_cells import GRUCell, LSTMCell, RNNCell, RNNCellBase

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _apply_permutation(tensor, permutation, dim: int = 1):
    return tensor.index_select(dim, permutation)


def _check_sizes(input_size, hidden_size, num_layers: int, bias, batch_first, dropout,
                 proj_size: int) -> None:
    """torch's refusals of a recurrent layer's constructor arguments, in its order."""
    if (not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1
            or isinstance(dropout, bool)):
        raise ValueError("dropout should be a number in range [0, 1] representing the "
                         "probability of an element being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                      "non-zero dropout expects num_layers greater than 1, but got "
                      f"dropout={dropout} and num_layers={num_layers}", stacklevel=4)
    for name, value in (("bias", bias), ("batch_first", batch_first)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} should be of type bool, got: {type(value).__name__}")
    for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
        if not isinstance(value, int):
            raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
        if value <= 0:
            raise ValueError(f"{name} must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable "
                         "projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNNBase(Module):
    """The base of RNN, LSTM and GRU: the parameters of every layer and direction, the
    checks of inputs and hidden states, the flat weight list the operators take.

    Args:
        mode (str): ``'LSTM'``, ``'GRU'``, ``'RNN_TANH'`` or ``'RNN_RELU'``.
        input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
        proj_size: as the subclasses document them.
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.mode = mode
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        self._flat_weight_refs = []
        _check_sizes(input_size, hidden_size, num_layers, bias, batch_first, dropout,
                     proj_size)
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self._flat_weights_names, self._all_weights = [], []
        for layer in range(num_layers):
            for direction in range(2 if bidirectional else 1):
                names = self._make_layer(layer, direction, _GATES[mode] * hidden_size,
                                         {"device": device, "dtype": dtype})
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self._init_flat_weights()
        self.reset_parameters()

    def _make_layer(self, layer: int, direction: int, gate_size: int, factory: dict) -> list:
        """Register one layer-direction's parameters; return their names."""
        hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        directions = 2 if self.bidirectional else 1
        inputs = self.input_size if layer == 0 else hidden * directions
        shapes = {"weight_ih": (gate_size, inputs), "weight_hh": (gate_size, hidden)}
        if self.bias:
            shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
        if self.proj_size > 0:
            shapes["weight_hr"] = (self.proj_size, self.hidden_size)
        suffix = "_reverse" if direction == 1 else ""
        names = []
        for kind, shape in shapes.items():
            names.append(f"{kind}_l{layer}{suffix}")
            setattr(self, names[-1], Parameter(torch.empty(shape, **factory)))
        return names

    def _init_flat_weights(self) -> None:
        self._flat_weights = [getattr(self, name, None) for name in self._flat_weights_names]
        self._flat_weight_refs = [None if w is None else weakref.ref(w)
                                  for w in self._flat_weights]
        self.flatten_parameters()

    def __setattr__(self, attr, value) -> None:
        if attr in self.__dict__.get("_flat_weights_names", ()):
            self._flat_weights[self._flat_weights_names.index(attr)] = value
        super().__setattr__(attr, value)

    def flatten_parameters(self) -> None:
        """Lay the weights out in one buffer for cuDNN; on the CPU nothing to do."""

    def _apply(self, fn, recurse=True):
        self._flat_weight_refs = []
        result = super()._apply(fn, recurse)
        self._init_flat_weights()
        return result

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes) -> None:
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype and not torch.is_autocast_enabled("cpu"):
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({weight_dtype}). Convert input: input.to({weight_dtype}), "
                             f"or convert model: model.to({input.dtype})")
        expected = 2 if batch_sizes is not None else 3
        if input.dim() != expected:
            raise RuntimeError(f"input must have {expected} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def _batch_of(self, input, batch_sizes) -> int:
        if batch_sizes is not None:
            return int(batch_sizes[0])
        return input.size(0) if self.batch_first else input.size(1)

    def get_expected_hidden_size(self, input, batch_sizes) -> tuple[int, int, int]:
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * (2 if self.bidirectional else 1),
                self._batch_of(input, batch_sizes), size)

    def check_hidden_size(self, hx, expected_hidden_size,
                          msg: str = "Expected hidden size {}, got {}") -> None:
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def _weights_have_changed(self) -> bool:
        for ref, name in zip(self._flat_weight_refs, self._flat_weights_names):
            weight = getattr(self, name, None)
            if weight is not None and ref is not None and ref() is not weight:
                return True
        return False

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        return hx if permutation is None else _apply_permutation(hx, permutation)

    def extra_repr(self) -> str:
        shown = {"proj_size": self.proj_size != 0, "num_layers": self.num_layers != 1,
                 "bias": self.bias is not True, "batch_first": self.batch_first is not False,
                 "dropout": self.dropout != 0, "bidirectional": self.bidirectional is not False}
        text = "{input_size}, {hidden_size}"
        text += "".join(f", {name}={{{name}}}" for name, show in shown.items() if show)
        return text.format(**self.__dict__)

    def _update_flat_weights(self) -> None:
        if self._weights_have_changed():
            self._init_flat_weights()

    def __getstate__(self):
        self._update_flat_weights()
        state = self.__dict__.copy()
        del state["_flat_weight_refs"]
        return state

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        self._flat_weight_refs = [None if w is None else weakref.ref(w)
                                  for w in self._flat_weights]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters, one list per layer and direction."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _replicate_for_data_parallel(self):
        replica = super()._replicate_for_data_parallel()
        replica._flat_weights = replica._flat_weights[:]
        replica._flat_weights_names = replica._flat_weights_names[:]
        return replica

    # ----- the shared steps of forward --------------------------------------------------
    def _unpack(self, input, label: str, tensor_word: str):
        """``(input, batch_sizes, sorted_indices, unsorted_indices, batched)`` of a
        PackedSequence or a 2-D / 3-D tensor (an unbatched one gains its batch dim)."""
        if isinstance(input, PackedSequence):
            data, batch_sizes, sorted_indices, unsorted_indices = input
            return data, batch_sizes, sorted_indices, unsorted_indices, True
        if input.dim() not in (2, 3):
            raise ValueError(f"{label}: Expected input to be 2D or 3D, got {input.dim()}D"
                             f"{tensor_word} instead")
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        return input, None, None, None, batched

    def _zeros(self, input, batch_sizes, size: int):
        return torch.zeros(self.num_layers * (2 if self.bidirectional else 1),
                           self._batch_of(input, batch_sizes), size, dtype=input.dtype,
                           device=input.device)

    def _run(self, function, input, batch_sizes, hx):
        """Call the layer operator on a padded (``.input``) or packed (``.data``) input."""
        flags = (self.bias, self.num_layers, self.dropout, self.training, self.bidirectional)
        if batch_sizes is None:
            return function(input, hx, self._flat_weights, *flags, self.batch_first)
        return function(input, batch_sizes, hx, self._flat_weights, *flags)

    def _single_state_forward(self, input, hx, function, label: str, tensor_word: str):
        """RNN's and GRU's forward: their state is one tensor."""
        self._update_flat_weights()
        packed = isinstance(input, PackedSequence)
        input, batch_sizes, sorted_indices, unsorted_indices, batched = self._unpack(
            input, label, tensor_word)
        if hx is not None and not packed:
            if not batched and hx.dim() != 2:
                raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got "
                                   f"{hx.dim()}-D tensor")
            if batched and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got "
                                   f"{hx.dim()}-D tensor")
            hx = hx if batched else hx.unsqueeze(1)
        if hx is None:
            hx = self._zeros(input, batch_sizes, self.hidden_size)
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(input, hx, batch_sizes)
        output, hidden = self._run(function, input, batch_sizes, hx)
        if packed:
            output = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        elif not batched:
            output, hidden = output.squeeze(0 if self.batch_first else 1), hidden.squeeze(1)
        return output, self.permute_hidden(hidden, unsorted_indices)


class RNN(RNNBase):
    """A multi-layer Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)``
    (ReLU instead of tanh with ``nonlinearity='relu'``).

    Args:
        input_size (int): features of each input step.
        hidden_size (int): features of the hidden state.
        num_layers (int): layers stacked, each fed the previous one's outputs. Default 1.
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default ``'tanh'``.
        bias (bool): with ``b_ih`` and ``b_hh``. Default True.
        batch_first (bool): inputs and outputs are ``(batch, time, feature)``.
        dropout (float): dropout on the outputs of every layer but the last. Default 0.
        bidirectional (bool): each layer also runs backwards in time. Default False.

    Inputs: input, h_0 — ``(L, N, H_in)`` (or a PackedSequence, or ``(L, H_in)``
    unbatched); ``(D * num_layers, N, H_out)``, zeros when omitted.

    Outputs: output, h_n — ``(L, N, D * H_out)``; ``(D * num_layers, N, H_out)``.

    Example::

        >>> rnn = nn.RNN(10, 20, 2)
        >>> output, hn = rnn(torch.randn(5, 3, 10), torch.randn(2, 3, 20))
        >>> output.shape
        torch.Size([5, 3, 20])
    """

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        modes = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}
        if self.nonlinearity not in modes:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' "
                             "or 'relu'.")
        super().__init__(modes[self.nonlinearity], *args, **kwargs)

    def forward(self, input, hx=None):
        function = torch.rnn_tanh if self.mode == "RNN_TANH" else torch.rnn_relu
        return self._single_state_forward(input, hx, function, "RNN", " tensor")


class LSTM(RNNBase):
    """A multi-layer long short-term memory network: input, forget, cell and output
    gates ``i, f, g, o`` from ``x_t`` and ``h_{t-1}``; ``c_t = f c_{t-1} + i g``,
    ``h_t = o tanh(c_t)`` (times ``W_hr`` when ``proj_size > 0``).

    Args:
        input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional:
        as `nn.RNN`.
        proj_size (int): if positive, each ``h_t`` is projected to this size. Default 0.

    Inputs: input, (h_0, c_0) — as `nn.RNN`; ``c_0`` is ``(D * num_layers, N, hidden_size)``.

    Outputs: output, (h_n, c_n).

    Example::

        >>> lstm = nn.LSTM(10, 20, 2)
        >>> output, (hn, cn) = lstm(torch.randn(5, 3, 10))
        >>> output.shape, cn.shape
        (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes) -> tuple[int, int, int]:
        return (self.num_layers * (2 if self.bidirectional else 1),
                self._batch_of(input, batch_sizes), self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return (_apply_permutation(hx[0], permutation), _apply_permutation(hx[1], permutation))

    def _check_state_dims(self, hx, batched: bool):
        """Both states 3-D for a batched input, 2-D (then given a batch dim) otherwise."""
        wanted, word = (3, "batched 3-D") if batched else (2, "unbatched 2-D")
        if hx[0].dim() != wanted or hx[1].dim() != wanted:
            raise RuntimeError(f"For {word} input, hx and cx should also be {wanted}-D but "
                               f"got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
        return hx if batched else (hx[0].unsqueeze(1), hx[1].unsqueeze(1))

    def forward(self, input, hx=None):
        self._update_flat_weights()
        packed = isinstance(input, PackedSequence)
        input, batch_sizes, sorted_indices, unsorted_indices, batched = self._unpack(
            input, "LSTM", "")
        if hx is None:
            hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
            hx = (self._zeros(input, batch_sizes, hidden_size),
                  self._zeros(input, batch_sizes, self.hidden_size))
        elif packed:
            hx = self.permute_hidden(hx, sorted_indices)
        else:
            hx = self._check_state_dims(hx, batched)
        self.check_forward_args(input, hx, batch_sizes)
        output, *hidden = self._run(torch.lstm, input, batch_sizes, hx)
        hidden = tuple(hidden)
        if packed:
            output = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        elif not batched:
            output = output.squeeze(0 if self.batch_first else 1)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1))
        return output, self.permute_hidden(hidden, unsorted_indices)


class GRU(RNNBase):
    """A multi-layer gated recurrent unit: reset gate ``r``, update gate ``z``, candidate
    ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``, then ``h' = (1 - z) n + z h``.

    Args:
        input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional:
        as `nn.RNN`.

    Inputs and outputs: as `nn.RNN`.

    Example::

        >>> gru = nn.GRU(10, 20, 2)
        >>> output, hn = gru(torch.randn(5, 3, 10))
        >>> hn.shape
        torch.Size([2, 3, 20])
    """

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._single_state_forward(input, hx, torch.gru, "GRU", "")
