"""A corpus of hostile checkpoints, made from raw pickle opcodes and zip records.

Each entry is (name, bytes of the file). Loading any of them must be refused by a
weights-only load without running anything: the code-running ones name a marker file
that exists only if something ran.
"""
import io
import pickle
import struct
import zipfile


def archive(data_pkl: bytes, records: dict | None = None, folder: str = "archive") -> bytes:
    """A zip checkpoint holding `data_pkl` and the given storage records."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        target.writestr(f"{folder}/data.pkl", data_pkl)
        target.writestr(f"{folder}/byteorder", "little")
        for key, data in (records or {}).items():
            target.writestr(f"{folder}/data/{key}", data)
        target.writestr(f"{folder}/version", "3\n")
    return buffer.getvalue()


def text(value: str) -> bytes:
    raw = value.encode()
    return pickle.BINUNICODE + struct.pack("<I", len(raw)) + raw


def integer(value: int) -> bytes:
    if 0 <= value < 256:
        return pickle.BININT1 + bytes([value])
    raw = value.to_bytes((value.bit_length() + 8) // 8, "little", signed=True)
    return pickle.LONG1 + bytes([len(raw)]) + raw


def global_(module: str, name: str) -> bytes:
    return pickle.GLOBAL + f"{module}\n{name}\n".encode()


def call(module: str, name: str, *args: bytes) -> bytes:
    return global_(module, name) + pickle.MARK + b"".join(args) + pickle.TUPLE + pickle.REDUCE


def program(body: bytes) -> bytes:
    return pickle.PROTO + b"\x02" + body + pickle.STOP


def tensor_record(numel=4, offset=0, size=(4,), stride=(1,), key="0", storage="FloatStorage",
                  location="cpu", legacy=False) -> bytes:
    """A ``_rebuild_tensor_v2`` call with the given (possibly lying) fields."""
    pid = (pickle.MARK + text("storage") + global_("torch", storage) + text(key)
           + text(location) + integer(numel) + (pickle.NONE if legacy else b"")
           + pickle.TUPLE + pickle.BINPERSID)
    shape = pickle.MARK + b"".join(integer(s) for s in size) + pickle.TUPLE
    strides = pickle.MARK + b"".join(integer(s) for s in stride) + pickle.TUPLE
    return (global_("torch._utils", "_rebuild_tensor_v2") + pickle.MARK + pid + integer(offset)
            + shape + strides + pickle.NEWFALSE + call("collections", "OrderedDict")
            + pickle.TUPLE + pickle.REDUCE)


def code_running(marker: str) -> list[tuple[str, bytes]]:
    """Pickles that would run a shell command (creating `marker`) if executed."""
    command = text(f"touch {marker}")
    return [
        ("os.system", archive(program(call("os", "system", command)))),
        ("posix.system", archive(program(call("posix", "system", command)))),
        ("subprocess", archive(program(call("subprocess", "call", pickle.MARK + text("touch")
                                                 + text(marker) + pickle.LIST)))),
        ("eval", archive(program(call("builtins", "eval", text(f"open({marker!r}, 'w')"))))),
        ("py2 eval", archive(program(call("__builtin__", "eval", text(f"open({marker!r}, 'w')"))))),
        ("exec in a dict", archive(program(pickle.EMPTY_DICT + text("k") + call(
            "builtins", "exec", text(f"open({marker!r}, 'w')")) + pickle.SETITEM))),
        ("inside a tensor list", archive(program(pickle.EMPTY_LIST + pickle.MARK
                                                 + tensor_record() + call("os", "system", command)
                                                 + pickle.APPENDS), {"0": bytes(16)})),
        ("torch-looking name", archive(program(call("torch.serialization", "os", command)))),
        ("getattr", archive(program(call("builtins", "getattr", global_("os", "path")
                                         + text("exists"))))),
        ("INST opcode", archive(program(pickle.MARK + text(f"touch {marker}")
                                        + b"ios\nsystem\n"))),
        ("OBJ opcode", archive(program(pickle.MARK + global_("os", "system") + command
                                       + pickle.OBJ))),
        ("STACK_GLOBAL", archive(program(text("os") + text("system") + pickle.STACK_GLOBAL
                                         + pickle.MARK + command + pickle.TUPLE
                                         + pickle.REDUCE))),
    ]


def misuse() -> list[tuple[str, bytes]]:
    """Pickles of allowed opcodes on the wrong targets."""
    dunder_state = (global_("torch._utils", "_rebuild_parameter_with_state") + pickle.MARK
                    + tensor_record() + pickle.NEWTRUE + pickle.EMPTY_DICT + pickle.EMPTY_DICT
                    + text("__class__") + global_("collections", "OrderedDict")
                    + pickle.SETITEM + pickle.TUPLE + pickle.REDUCE)
    return [
        ("special attribute set by a record", archive(program(dunder_state), {"0": bytes(16)})),
        ("BUILD on a list", archive(program(pickle.EMPTY_LIST + pickle.EMPTY_DICT + pickle.BUILD))),
        ("BUILD on an int", archive(program(integer(3) + pickle.EMPTY_DICT + pickle.BUILD))),
        ("NEWOBJ of a list", archive(program(pickle.EMPTY_LIST + pickle.EMPTY_TUPLE
                                             + pickle.NEWOBJ))),
        ("APPEND to a dict", archive(program(pickle.EMPTY_DICT + integer(1) + pickle.APPEND))),
        ("SETITEM on a list", archive(program(pickle.EMPTY_LIST + integer(1) + integer(2)
                                              + pickle.SETITEM))),
        ("persistent id not storage", archive(program(pickle.MARK + text("module")
                                                      + pickle.TUPLE + pickle.BINPERSID))),
        ("persistent id of a string", archive(program(text("x") + pickle.BINPERSID))),
        ("EXT1", archive(program(pickle.EXT1 + b"\x01"))),
    ]


def bad_storages() -> list[tuple[str, bytes]]:
    """Tensor records whose geometry or storage lies."""
    record = {"0": bytes(16)}
    return [
        ("numel larger than its record", archive(program(tensor_record(numel=2 ** 40)), record)),
        ("numel smaller than its record", archive(program(tensor_record(numel=2)), record)),
        ("size past the storage", archive(program(tensor_record(size=(2 ** 40,))), record)),
        ("offset past the storage", archive(program(tensor_record(offset=3, size=(4,))), record)),
        ("negative offset", archive(program(tensor_record(offset=-1)), record)),
        ("negative stride", archive(program(tensor_record(size=(4,), stride=(-1,))), record)),
        ("stride past the storage", archive(program(tensor_record(size=(2, 2),
                                                                  stride=(8, 1))), record)),
        ("missing record", archive(program(tensor_record(key="7")), record)),
        ("unknown location", archive(program(tensor_record(location="elsewhere")), record)),
    ]


def broken_archives(good: bytes) -> list[tuple[str, bytes]]:
    """A good checkpoint cut short or damaged."""
    return [("truncated to half", good[:len(good) // 2]), ("truncated to 10 bytes", good[:10]),
            ("last byte missing", good[:-1]), ("no data.pkl", _without(good, "data.pkl")),
            ("no version record", _without(good, "/version"))]


def _without(good: bytes, suffix: str) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(good))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for name in source.namelist():
            if not name.endswith(suffix):
                target.writestr(name, source.read(name))
    return buffer.getvalue()


def size_bombs() -> list[tuple[str, bytes]]:
    """Files whose claimed sizes would take far more memory than they hold."""
    claimed = 2 ** 32 - 2
    record_bomb = bytearray(archive(program(tensor_record(numel=claimed, storage="ByteStorage")),
                                    {"0": bytes(16)}))
    _claim_size(record_bomb, "archive/data/0", claimed)
    legacy = io.BytesIO()
    for header in (0x1950A86A20F9469CFC6C, 1001, {"little_endian": True}):
        pickle.dump(header, legacy, protocol=2)
    legacy.write(program(tensor_record(numel=2 ** 40, legacy=True)))
    pickle.dump(["0"], legacy, protocol=2)
    legacy.write(struct.pack("<q", 2 ** 40) + bytes(64))
    deflated = io.BytesIO()
    with zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as target:
        target.writestr("archive/data.pkl", program(tensor_record(numel=claimed,
                                                                  storage="ByteStorage")))
        target.writestr("archive/data/0", bytes(16))
        target.writestr("archive/version", "3\n")
    deflated_bomb = bytearray(deflated.getvalue())
    _claim_size(deflated_bomb, "archive/data/0", claimed, compressed=False)
    return [("bytearray of a terabyte", archive(program(call("builtins", "bytearray",
                                                             integer(2 ** 40))))),
            ("storage of a terabyte", archive(program(call("torch.storage", "UntypedStorage",
                                                           integer(2 ** 40))))),
            ("legacy tensor of a terabyte", archive(program(call("torch", "FloatTensor",
                                                                 integer(2 ** 20),
                                                                 integer(2 ** 20))))),
            ("zip directory claims 4 GB", bytes(record_bomb)),
            ("deflated record claims 4 GB", bytes(deflated_bomb)),
            ("legacy storage claims a terabyte", legacy.getvalue()),
            ("pickle string claims 4 GB", archive(program(pickle.BINUNICODE
                                                          + struct.pack("<I", 2 ** 32 - 1))))]


def _claim_size(data: bytearray, name: str, size: int, compressed: bool = True) -> None:
    """Make the central directory entry of `name` claim `size` bytes uncompressed (and
    compressed too, unless `compressed` is False)."""
    position = 0
    while True:
        position = data.find(b"PK\x01\x02", position)
        name_length = struct.unpack("<H", data[position + 28:position + 30])[0]
        if data[position + 46:position + 46 + name_length] == name.encode():
            break
        position += 4
    struct.pack_into("<I", data, position + 24, size)
    if compressed:
        struct.pack_into("<I", data, position + 20, size)
