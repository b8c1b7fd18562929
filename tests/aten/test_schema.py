"""The schema parser: ATen's grammar in, the same text out, the right SchemaKind."""
import pytest

from glasstorch.aten.schema import SchemaKind, parse_schema

ROUND_TRIP = [
    "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
    "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
    "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
    "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
    "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
    "zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
    "bool? pin_memory=None) -> Tensor",
    "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, "
    "SymInt[2] padding=0) -> Tensor",
    "norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor",
    "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
    "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, "
    "Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
    "contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
    "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
    "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_round_trip(text):
    assert str(parse_schema(text)) == text


@pytest.mark.parametrize("text, kind", [
    (ROUND_TRIP[0], SchemaKind.functional),
    (ROUND_TRIP[1], SchemaKind.inplace),
    (ROUND_TRIP[2], SchemaKind.out),
    (ROUND_TRIP[-1], SchemaKind.out),
    ("_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()", SchemaKind.inplace),
    ("_amp_update_scale_(Tensor(a!) self, Tensor(b!) growth_tracker) -> Tensor",
     SchemaKind.inplace),
    ("_fused_thing(Tensor self, Tensor(a!) buffer) -> Tensor", SchemaKind.mutable),
    # an out= overload that also writes a buffer: out, as torchgen says
    ("rrelu_with_noise.out(Tensor self, Tensor(b!) noise, *, Tensor(a!) out) -> Tensor(a!)",
     SchemaKind.out),
])
def test_kind_comes_from_annotations(text, kind):
    assert parse_schema(text).kind is kind


def test_parts():
    schema = parse_schema(ROUND_TRIP[6])
    size, dtype = schema.arguments[0], schema.arguments[1]
    assert schema.name == "zeros" and schema.overload_name == ""
    assert size.type.base == "SymInt" and size.type.is_list and not size.kwarg_only
    assert dtype.type.optional and dtype.kwarg_only and dtype.default is None
    conv = parse_schema(ROUND_TRIP[7])
    assert conv.arguments[3].default == (1, 1)          # int[2] stride=1 means [1, 1]
    assert parse_schema(ROUND_TRIP[10]).arguments[4].default == 1e-05
    split = parse_schema(ROUND_TRIP[4])
    assert split.is_view and split.returns[0].type.is_list
    assert split.arguments[0].alias.after == ("*",)
    assert not parse_schema(ROUND_TRIP[0]).is_view


@pytest.mark.parametrize("bad", ["add(Tensor self", "add(Frob x) -> Tensor",
                                 "add(Tensor) -> Tensor"])
def test_bad_schema_is_named(bad):
    with pytest.raises(ValueError, match="schema"):
        parse_schema(bad)


def test_buffers_written_on_the_side_are_not_versioned():
    """A writing overload bumps the versions of the written arguments it returns, not of
    a buffer it writes on the side (torch's rrelu_with_noise: noise stays at version 0);
    a declaration with such a buffer is the operator's functional overload."""
    import glasstorch as torch
    from glasstorch.aten.registry import DECLARATIONS
    torch.ops.aten.rrelu_with_noise         # its family loads on first use
    declaration = DECLARATIONS["rrelu_with_noise"]
    assert declaration.overloads[SchemaKind.functional].written_args == ()
    assert declaration.overloads[SchemaKind.inplace].written_args == (0,)
    x, noise = torch.tensor([-1.0, 2.0]), torch.zeros(2)
    torch.ops.aten.rrelu_with_noise_(x, noise, 0.2, 0.2, True)
    assert (x._version, noise._version) == (1, 0) and noise.tolist()[1] == 1.0


def test_list_default_items_are_single_values():
    """An item of a fixed-size list default is one value: ``int[1] padding=[0]`` is
    ``(0,)``, as ``int[2] stride=1`` is ``(1, 1)``."""
    parsed = parse_schema("max_pool1d(Tensor self, int[1] kernel_size, int[1] padding=[0], "
                          "int[2] dilation=[1, 2]) -> Tensor")
    assert parsed.arguments[2].default == (0,)
    assert parsed.arguments[3].default == (1, 2)


def test_records_compare_hash_print_and_refuse_changes():
    """The records behave as frozen dataclasses would (Note [Records without dataclasses])."""
    from glasstorch.aten.registry import DECLARATIONS
    from glasstorch.aten.schema import Type
    text = "fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)"
    first, again = parse_schema(text), parse_schema(text)
    assert first is not again and first == again and hash(first) == hash(again)
    assert first != parse_schema(text.replace("fill_", "zero_")) and first != text
    with pytest.raises(AttributeError, match="cannot assign to field 'name'"):
        first.name = "zero_"
    with pytest.raises(AttributeError, match="cannot delete field 'returns'"):
        del first.returns
    assert repr(Type("int", True, 2)) == (
        "Type(base='int', is_list=True, size=2, optional=False, element_optional=False)")
    declaration = DECLARATIONS["copy_"]
    assert repr(declaration).startswith("Declaration(name='copy_', kind='op', overloads={")
    with pytest.raises(TypeError, match="unhashable"):
        hash(declaration)
