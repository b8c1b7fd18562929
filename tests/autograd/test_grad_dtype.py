"""Tensor.grad_dtype: the dtype a leaf's gradient must have (None: any), against torch."""
import warnings

import pytest

import glasstorch as gt


def story(torch) -> list:
    """Each step's result or error, for glasstorch and torch alike."""
    out = []

    def record(step):
        try:
            out.append(repr(step()))
        except Exception as error:       # the refusal is the result
            out.append(f"{type(error).__name__}: {error}")

    x = torch.randn(2, requires_grad=True)
    y = x * 2
    record(lambda: x.grad_dtype)
    record(lambda: y.grad_dtype)
    record(lambda: setattr(y, "grad_dtype", torch.float64))
    record(lambda: setattr(x, "grad_dtype", 3))
    record(lambda: setattr(x, "grad", torch.zeros(2, dtype=torch.float64)))
    x.grad_dtype = torch.float64                 # arriving gradients are cast to it
    (x * 1).sum().backward()
    record(lambda: x.grad.dtype)
    record(lambda: setattr(x, "grad_dtype", torch.float32))     # a float64 grad is there
    anything = torch.randn(2, requires_grad=True)
    anything.grad_dtype = None                   # any dtype, and accumulation keeps it
    anything.grad = torch.zeros(2, dtype=torch.float16)
    (anything * 1).sum().backward()
    record(lambda: (anything.grad.dtype, anything.grad_dtype))
    converted = torch.randn(2, requires_grad=True)
    converted.grad_dtype = None                  # the conversion's backward casts back
    (converted.double() * 1).sum().backward()
    record(lambda: converted.grad.dtype)
    record(lambda: torch.randn(2).grad_dtype)
    return [line.replace("torch.", "") for line in out]


def test_grad_dtype_as_torch():
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # torch warns reading a non-leaf's .grad
        assert story(gt) == story(torch)


def test_grad_dtype_alone():
    lines = story(gt)
    assert lines[0] == "float32" and lines[5] == "float64"
    assert lines[7] == "(float16, None)" and lines[8] == "float32"
    assert lines[4].startswith("RuntimeError: attempting to assign a gradient with dtype "
                               "'double' to a tensor with grad_dtype 'Float'")
