"""Backends as data (Note [Meta registrations] in glasstorch/aten/backends.py).

* No operator rule or kernel in aten/native or aten/meta asks which device it runs on
  (`device.type`, `is_meta`, a "cpu" / "meta" literal): the dispatcher chose the key,
  and what differs on meta is the Meta registration.
* `register_meta` gives the Meta key of every variant its own rule and leaves CPU's.
"""
import io
import pathlib
import tokenize

import pytest

import glasstorch as torch
from glasstorch.aten.backends import register_meta
from glasstorch.aten.dispatcher import ops
from glasstorch.aten.pointwise import pointwise
from glasstorch.aten.registry import DECLARATIONS, META, TensorMeta, composite, op, view

ATEN = pathlib.Path(torch.__file__).parent / "aten"
SCANNED = sorted((ATEN / "native").rglob("*.py")) + sorted((ATEN / "meta").rglob("*.py"))
DEVICE_NAMES = {"cpu", "meta"}
DEVICE_TESTS = {"is_cpu", "is_meta"}


def device_tests(source: str) -> list:
    """(line, text) of each place the code names a device or reads a device's type."""
    found = []
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    for i, token in enumerate(tokens):
        text = token.string
        if token.type == tokenize.STRING:
            body = text.lstrip("rbfuRBFU")
            if body[1:-1] in DEVICE_NAMES or (body[:1] in "'\"" and "device.type" in body
                                               and text[:1] in "fF"):
                found.append((token.start[0], text))
        elif token.type == tokenize.NAME and i >= 2 and tokens[i - 1].string == ".":
            owner = tokens[i - 2].string
            if text in DEVICE_TESTS or (text == "type" and "device" in owner):
                found.append((token.start[0], f"{owner}.{text}"))
    return found


def test_the_scan_finds_device_tests():
    source = ('if t._device.type == "meta":\n    pass\n'
              'x = t.is_meta\ny = as_device("cpu")\nz = f"{t._device.type}"\n'
              '"""A docstring may say cpu and meta."""\n# a comment: device.type\n')
    assert [line for line, _ in device_tests(source)] == [1, 1, 3, 4, 5]


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: str(p.relative_to(ATEN)))
def test_no_device_tests_in_rules_or_kernels(path):
    found = device_tests(path.read_text(encoding="utf-8"))
    assert not found, (f"{path.relative_to(ATEN)} asks for a device: {found}; give the "
                       f"Meta key its own rule (register_meta) or read a DeviceType row")


# ----------------------------------------------------------------------------------
# The Meta registration
# ----------------------------------------------------------------------------------
def _declared_once(name: str):
    """A fresh operator name per test run (declarations are process-wide)."""
    index = sum(1 for n in DECLARATIONS if n.startswith(name))
    return f"{name}{index}"


def test_register_meta_gives_every_variant_its_meta_rule():
    name = _declared_once("_test_backends_twice")

    def cpu_rule(self):
        if self._dtype is torch.bool:
            raise RuntimeError("CPU words")
        return TensorMeta(self._size, self._dtype)

    @op(f"{name}(Tensor self) -> Tensor", meta=cpu_rule, inplace=True, out=True)
    def twice(self, *, out):
        out[...] = self * 2

    @register_meta(twice)
    def meta_rule(self):
        if self._dtype is torch.bool:
            raise TypeError("Meta words")
        return TensorMeta(self._size, self._dtype)

    overloads = DECLARATIONS[name].overloads.values()
    assert DECLARATIONS[name].meta_rules[META] is meta_rule
    assert all("meta_rule" in repr(o).split("Meta")[1].splitlines()[0] for o in overloads)
    flags = torch.zeros(2, dtype=torch.bool)
    on_meta = flags.to("meta")
    variants = [lambda t: twice(t), lambda t: getattr(ops.aten, f"{name}_").default(t),
                lambda t: ops.aten.__getattr__(name).out(t, t.clone())]
    for call in variants:
        with pytest.raises(RuntimeError, match="CPU words"):
            call(flags)
        with pytest.raises(TypeError, match="Meta words"):
            call(on_meta)
    assert twice(torch.ones(2)).tolist() == [2.0, 2.0]


def test_pointwise_kernel_check_is_not_made_on_meta():
    name = _declared_once("_test_backends_halve")

    def refuse_integers(self):
        if not self._dtype.is_floating_point:
            raise NotImplementedError("no integer loop")

    @pointwise(f"{name}(Tensor self) -> Tensor", inplace=True, out=True,
               kernel_check=refuse_integers)
    def halve(self, *, out):
        out[...] = self / 2

    whole = torch.ones(3, dtype=torch.int64)
    for t in (whole, torch.ones(3, dtype=torch.int64, device="meta")):
        if t.is_meta:
            assert halve(t).shape == (3,)
            continue
        with pytest.raises(NotImplementedError, match="no integer loop"):
            halve(t)


def test_register_meta_of_a_view_and_refusal_of_a_composite():
    name = _declared_once("_test_backends_view")

    @view(f"{name}(Tensor(a) self) -> Tensor(a)", method=False)
    def same(self):
        return self._size, self._stride, self._offset

    register_meta(same, lambda self: ((1,) + self._size, (0,) + self._stride, self._offset))
    assert same(torch.ones(2)).shape == (2,)
    assert same(torch.ones(2, device="meta")).shape == (1, 2)

    @composite(f"{name}_composite(Tensor self) -> Tensor")
    def written(self):
        return self
    with pytest.raises(TypeError, match="composite"):
        register_meta(written, lambda self: None)
