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
from glasstorch.aten.registry import META

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
# The Meta registration, on operators that have one (declarations are process-wide, so
# the tests use real ones rather than declare their own)
# ----------------------------------------------------------------------------------
def _raises(call, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        call()


def test_register_meta_gives_every_variant_its_rule():
    """renorm's Meta registration words a refusal as torch's meta function does, in the
    functional, in-place and out= variants alike; CPU keeps the declared rule."""
    declaration = ops.aten.renorm.default.declaration        # (loads its family)
    rule = declaration.form.meta_rules[META]
    for overload in declaration.overloads.values():
        meta_line = next(line for line in repr(overload).splitlines()
                         if line.split()[0] == "Meta")
        assert rule.__name__ in meta_line
    for device, words in (("cpu", "non-positive-norm"), ("meta", "non-positive norm")):
        x = torch.ones(2, 2, device=device)
        variants = (lambda: torch.renorm(x, -1, 0, 1.0), lambda: x.renorm_(-1, 0, 1.0),
                    lambda: torch.renorm(x, -1, 0, 1.0, out=torch.empty_like(x)))
        for call in variants:
            _raises(call, RuntimeError, f"^renorm: {words} not supported$")


def test_kernel_checks_are_not_made_on_meta():
    """atan2's kernel_check (torch's CPU kernel has no complex loop) refuses on CPU only,
    in every variant; the Meta key describes the result."""
    for device in ("cpu", "meta"):
        z = torch.ones(2, dtype=torch.complex64, device=device)
        variants = (lambda: torch.atan2(z, z), lambda: z.clone().atan2_(z),
                    lambda: torch.atan2(z, z, out=torch.empty_like(z)))
        for call in variants:
            if device == "cpu":
                _raises(call, NotImplementedError, "atan2_cpu")
            else:
                assert call().shape == (2,)


def test_meta_registrations_of_views_and_explicit_composites():
    """as_strided checks a meta tensor's storage bounds only in place, even through the
    views' fast kernel; diagonal_scatter (an explicit composite) checks nothing on meta."""
    for device in ("cpu", "meta"):
        x = torch.zeros(2, device=device)
        wide = lambda: x.as_strided((3,), (1,))                     # noqa: E731
        scatter = lambda: torch.diagonal_scatter(torch.zeros(2, 3, device=device),  # noqa: E731
                                                 torch.ones(3, device=device), 1)
        if device == "cpu":
            _raises(wide, RuntimeError, "out of bounds for storage")
            _raises(scatter, RuntimeError, "expected src to have a size equal")
        else:
            assert wide().shape == (3,) and scatter().shape == (2, 3)
    _raises(lambda: x.as_strided_((3,), (1,)), RuntimeError, "out of bounds for storage")


def test_implicit_composites_have_no_meta_registration():
    contiguous = ops.aten.contiguous.default
    kernels = dict(contiguous.kernels)
    _raises(lambda: register_meta(contiguous, lambda self, memory_format=None: self),
            TypeError, "implicit composite")
    assert contiguous.kernels == kernels and not contiguous.declaration.form.meta_rules
