"""The named tuples of operators with several results, `torch.return_types.<name>`.

An operator whose schema names its results (``frexp.Tensor(Tensor self) -> (Tensor
mantissa, Tensor exponent)``) returns, through its Python binding, a tuple whose items
are also reachable by those names: ``torch.frexp(x).mantissa``. torch calls these
"structseq" types, one per operator, and a second one, ``<name>_out``, for the out=
form, and makes them with its Python bindings. Declare one here with `declare`; the
bindings find it by the operator's name, and `glasstorch/return_types.py`, the public
namespace, shows every type declared here.
"""
from __future__ import annotations

PUBLIC_MODULE = "glasstorch.return_types"      # where users (and pickle) find the types
FIELDS: dict = {}                              # name -> field names, of every type declared
_TYPES: dict = {}                              # name -> type, made on first lookup


class _NamedResults(tuple):
    """A tuple of an operator's results that also names them (torch's structseq)."""

    _fields: tuple = ()

    def __new__(cls, sequence):
        items = tuple(sequence)
        if len(items) != len(cls._fields):
            raise TypeError(f"torch.return_types.{cls.__name__} takes a "
                            f"{len(cls._fields)}-sequence ({len(items)}-sequence given)")
        return super().__new__(cls, items)

    @property
    def n_fields(self) -> int:
        return len(self._fields)

    n_sequence_fields = n_fields

    @property
    def n_unnamed_fields(self) -> int:
        return 0

    def __repr__(self) -> str:
        items = ",\n".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
        return f"torch.return_types.{type(self).__name__}(\n{items})"

    def __reduce__(self):
        return (type(self), (tuple(self),))


def declare(name: str, fields: tuple) -> None:
    """Name ``torch.return_types.<name>`` (and ``<name>_out``) and its fields; each type
    is made on its first `lookup` (dozens are declared at import, few programs use them)."""
    FIELDS[name] = FIELDS[name + "_out"] = tuple(fields)


def lookup(name: str):
    """The named-results type of an operator (``frexp`` or ``frexp_out``), or None."""
    found = _TYPES.get(name)
    if found is None and name in FIELDS:     # setdefault: one type even when threads race
        found = _TYPES.setdefault(name, _make(name, FIELDS[name]))
    return found


def _make(type_name: str, fields: tuple) -> type:
    namespace = {"_fields": fields, "__slots__": (), "__module__": PUBLIC_MODULE,
                 "__qualname__": type_name}
    for index, field in enumerate(fields):
        namespace[field] = property(lambda self, i=index: self[i],
                                    doc=f"Item {index} of the results.")
    return type(type_name, (_NamedResults,), namespace)


declare("frexp", ("mantissa", "exponent"))
declare("sort", ("values", "indices"))
declare("topk", ("values", "indices"))
declare("kthvalue", ("values", "indices"))
declare("median", ("values", "indices"))
declare("nanmedian", ("values", "indices"))
declare("mode", ("values", "indices"))
declare("histogram", ("hist", "bin_edges"))
declare("cummax", ("values", "indices"))
declare("cummin", ("values", "indices"))
declare("max", ("values", "indices"))
declare("min", ("values", "indices"))
declare("aminmax", ("min", "max"))
declare("_scaled_dot_product_flash_attention_for_cpu", ("output", "logsumexp"))
declare("linalg_cholesky_ex", ("L", "info"))
declare("linalg_inv_ex", ("inverse", "info"))
declare("linalg_solve_ex", ("result", "info"))
declare("_linalg_solve_ex", ("result", "LU", "pivots", "info"))
declare("triangular_solve", ("solution", "cloned_coefficient"))
declare("_linalg_det", ("result", "LU", "pivots"))
declare("linalg_slogdet", ("sign", "logabsdet"))
declare("slogdet", ("sign", "logabsdet"))
declare("_linalg_slogdet", ("sign", "logabsdet", "LU", "pivots"))
declare("linalg_eigh", ("eigenvalues", "eigenvectors"))
declare("_linalg_eigh", ("eigenvalues", "eigenvectors"))
declare("_linalg_svd", ("U", "S", "Vh"))
declare("linalg_svd", ("U", "S", "Vh"))
declare("svd", ("U", "S", "V"))
declare("linalg_lu_factor_ex", ("LU", "pivots", "info"))
declare("linalg_lu_factor", ("LU", "pivots"))
declare("linalg_lu", ("P", "L", "U"))
declare("lu_unpack", ("P", "L", "U"))
declare("geqrf", ("a", "tau"))
declare("linalg_qr", ("Q", "R"))
declare("qr", ("Q", "R"))
declare("linalg_eig", ("eigenvalues", "eigenvectors"))
declare("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
declare("linalg_ldl_factor_ex", ("LD", "pivots", "info"))
declare("linalg_ldl_factor", ("LD", "pivots"))
