"""Signatures as torch's (`signatures.py`): the gaps may shrink, never grow.

Each known gap is listed with why it is there; a new one fails the test, and so does a
listed one that has closed (delete it from the list: the ratchet moves).
"""
import pytest

pytest.importorskip("torch")

import signatures  # noqa: E402

# Python names lacking parameters torch takes: (kind, name) -> the parameters, and why.
KNOWN_PYTHON_GAPS = {
    ("function", "_softmax_backward_data"): (["grad_input"], "out= of a backward operator"),
    ("function", "addmm"): (["out_dtype"], "mixed-precision overloads torch's CPU build "
                                           "declares but does not run"),
    ("function", "baddbmm"): (["out_dtype"], "as addmm"),
    ("function", "bmm"): (["out_dtype"], "as addmm"),
    ("function", "mm"): (["out_dtype"], "as addmm"),
    ("function", "split_copy"): (["out"], "out= of a list of tensors"),
    ("function", "split_with_sizes_copy"): (["out"], "out= of a list of tensors"),
    ("function", "unbind_copy"): (["out"], "out= of a list of tensors"),
    ("function", "_native_batch_norm_legit"): (["out"], "out= of a composite's three results "
                                                        "(native_batch_norm has it)"),
}
# Declared overloads whose schema text differs from torch's: the defaults' spelling
# (``0`` for ``0.``; None standing for int64), the same values.
KNOWN_SCHEMA_DIFFERENCES = 13
# Missing: mostly the .Scalar twins numbers reach as tensors (the special polynomials',
# zeta's and xlog1py's among them).
KNOWN_MISSING_OVERLOADS = 122


def test_python_signatures_gain_no_gap():
    gaps = signatures.python_gaps()
    assert gaps == {key: value[0] for key, value in KNOWN_PYTHON_GAPS.items()}


def test_schemas_gain_no_difference():
    differing, missing = signatures.compare()
    assert len(differing) <= KNOWN_SCHEMA_DIFFERENCES
    assert len(missing) <= KNOWN_MISSING_OVERLOADS
