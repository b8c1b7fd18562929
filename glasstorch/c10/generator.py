"""`torch.Generator`: torch's CPU random engine, a 32-bit Mersenne Twister (mt19937).

Every random operator of glasstorch draws its raw bits here, in the order ATen's
`CPUGeneratorImpl` hands them out, so that a seeded program sees torch's numbers.

Note [The engine and its state]
    ATen's CPU generator is the standard mt19937: 624 words of state, seeded from the
    low 32 bits of the 64-bit seed with Knuth's multiplier (init_genrand), tempered
    on output. NumPy's `MT19937` bit generator is the same engine; glasstorch keeps
    one as the draw source (its C loop makes millions of words per millisecond) and
    sets its key array to what torch's seeding computes (`_seed_words`, written out
    here so the derivation can be read and checked).
    The engine's position is kept differently: ATen counts `left` (draws before the
    next twist, 1 means "twist first") and `next` (the word to read), NumPy a single
    `pos` (624 means "twist first"). Right after seeding ATen says left=1, next=0;
    after 624 draws it says left=1, next=624; NumPy says pos=624 both times. The
    generator remembers the (left, next) pair it was last given until it draws, so
    `get_state()` returns torch's bytes exactly.
    Besides the engine, the generator caches the second sample of a Box-Muller pair
    (`next_double_normal_sample` / `next_float_normal_sample`, see
    `aten/native/random_draws.py`); they are part of the state bytes.

Note [The state bytes]
    `get_state()` is a uint8 tensor of 5056 bytes holding ATen's
    `CPUGeneratorImplState` struct as it lies in memory (little-endian, C alignment):
        0     uint64 the_initial_seed          8   int32 left      12  int32 seeded
        16    uint64 next                      24  uint64 state[624] (one word each)
        5016  double normal_x (always 0)       5024 double normal_y (the cached double)
        5032  double normal_rho (always 0)     5040 int32 normal_is_valid (+4 padding)
        5048  float next_float_normal_sample   5052 bool its validity (+3 padding)
    so states move between glasstorch and torch (`torch.set_rng_state`) unchanged.
"""
from __future__ import annotations

import os

import numpy as np

from .device import device as _device

STATE_WORDS = 624                 # mt19937's state length (MERSENNE_STATE_N)
STATE_BYTES = 5056                # sizeof(CPUGeneratorImplState)
DEFAULT_SEED = 67280421310721     # torch.Generator()'s seed (default_rng_seed_val)

_STATE_LAYOUT = np.dtype([
    ("initial_seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
    ("state", "<u8", (STATE_WORDS,)), ("normal_x", "<f8"), ("normal_y", "<f8"),
    ("normal_rho", "<f8"), ("normal_is_valid", "<i4"), ("pad0", "<i4"),
    ("next_float", "<f4"), ("next_float_valid", "u1"), ("pad1", "u1", (3,))])
assert _STATE_LAYOUT.itemsize == STATE_BYTES


def _seed_words(seed: int) -> np.ndarray:
    """The 624-word mt19937 key for `seed`, as ATen's `init_with_uint32` makes it.

    Only the low 32 bits of the seed enter the engine (the full seed is kept for
    `initial_seed()`); each word is 1812433253 * (w ^ (w >> 30)) + i of the one before.
    """
    words = [seed & 0xFFFFFFFF]
    for i in range(1, STATE_WORDS):
        w = words[-1]
        words.append((1812433253 * (w ^ (w >> 30)) + i) & 0xFFFFFFFF)
    return np.array(words, dtype=np.uint32)


def _check_seed(seed) -> int:
    """A seed as the 64-bit unsigned value ATen stores (negative ones wrap)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    seed = int(seed)
    if not -(1 << 63) <= seed < (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    return seed & 0xFFFFFFFFFFFFFFFF


def nondeterministic_seed() -> int:
    """A fresh seed from the OS, 53 bits wide as ATen's (so it survives a double)."""
    return int.from_bytes(os.urandom(8), "little") & ((1 << 53) - 1)


class Generator:
    """A source of random numbers: ATen's CPU mt19937 generator.

    Args:
        device: the device the generator serves; only ``'cpu'``.

    Every random operator takes ``generator=``; without one it uses
    `torch.default_generator`. Two generators seeded alike produce torch's stream.

    Example::

        >>> g = torch.Generator().manual_seed(0)
        >>> torch.rand(2, generator=g)
        tensor([0.4963, 0.7682])
    """

    __slots__ = ("device", "_bits", "_draw", "_seed", "_position", "next_double_normal_sample",
                 "next_float_normal_sample", "__weakref__")

    def __init__(self, device="cpu") -> None:
        dev = _device(device)
        if dev.type != "cpu":
            raise RuntimeError(f"{dev.type.upper()} device type not an accelerator.")
        self.device = _device("cpu")
        self._seed = DEFAULT_SEED          # the engine itself is made on first use:
        self._position = (1, 0)            # `import glasstorch` need not load numpy.random
        self.next_double_normal_sample = None
        self.next_float_normal_sample = None

    def __getattr__(self, name: str):
        """Make the engine (`_bits`, `_draw`) on first use, seeded with `_seed`."""
        if name not in ("_bits", "_draw"):
            raise AttributeError(f"'Generator' object has no attribute '{name}'")
        self._bits = np.random.MT19937(0)
        # integers over all of [0, 2**32) are the engine's raw words, one per value
        # (NumPy's bounded sampler passes a full-range request straight through), and
        # come four times faster than `random_raw`, as uint32.
        self._draw = np.random.Generator(self._bits).integers
        # at the seed's start; `_position` is left alone: a draw may already have
        # marked it as moving (None) before asking for the engine
        self._bits.state = _engine_state(_seed_words(self._seed), STATE_WORDS)
        return getattr(self, name)

    # -- seeding ---------------------------------------------------------------------
    def manual_seed(self, seed) -> "Generator":
        """Seed the generator (a 64-bit integer; negative seeds wrap) and return it."""
        self._reseed(_check_seed(seed))
        return self

    def seed(self) -> int:
        """Seed the generator from the OS, and return that seed."""
        seed = nondeterministic_seed()
        self._reseed(seed)
        return seed

    def initial_seed(self) -> int:
        """The seed the generator was last seeded with."""
        return self._seed

    def _reseed(self, seed: int) -> None:
        self._seed = seed
        self.next_double_normal_sample = None
        self.next_float_normal_sample = None
        try:
            object.__getattribute__(self, "_bits")     # (not __getattr__: it would make it)
        except AttributeError:          # no engine yet: the first draw makes it from `_seed`
            self._position = (1, 0)
            return
        self._load(_seed_words(seed), 1, 0)

    def _load(self, words: np.ndarray, left: int, next_: int) -> None:
        """Put the engine at ATen's (state words, left, next); see Note [The engine ...]."""
        self._bits.state = _engine_state(words, STATE_WORDS if left == 1 else next_)
        self._position = (left, next_)

    # -- raw draws -------------------------------------------------------------------
    def random(self, n: int) -> np.ndarray:
        """`n` raw 32-bit words (ATen's `random()` called n times), as uint32."""
        if n == 0:
            return np.empty(0, np.uint32)
        self._position = None
        if n < 4096:                    # `integers` costs ~20 us a call before it draws
            return self._bits.random_raw(n).astype(np.uint32)
        return self._draw(0, 1 << 32, n, dtype=np.uint32)

    def random64(self, n: int) -> np.ndarray:
        """`n` 64-bit draws (ATen's `random64()`): the first word of a pair is the high half."""
        if n >= 2048:
            # NumPy's full-range uint64 sampler joins two words the same way (high
            # first), and is a third faster than drawing the words and joining them
            self._position = None
            return self._draw(0, 1 << 64, n, dtype=np.uint64)
        words = self.random(2 * n)
        result = words[0::2].astype(np.uint64)
        result <<= np.uint64(32)
        result |= words[1::2]
        return result

    def snapshot(self) -> tuple:
        """The engine's exact position, for a sampler that must draw ahead and then
        rewind (`restore`) to consume only what it used."""
        return self._bits.state, self._position

    def restore(self, snapshot: tuple) -> None:
        """Go back to a `snapshot` (the cached normal samples are not part of it)."""
        self._bits.state, self._position = snapshot

    # -- state -----------------------------------------------------------------------
    def get_state(self):
        """The generator's state as torch's 5056-byte uint8 tensor (Note [The state bytes])."""
        from .dtype import uint8
        from .tensor_impl import wrap_array
        return wrap_array(self._state_bytes(), uint8)

    def _state_bytes(self) -> np.ndarray:
        state = self._bits.state["state"]
        record = np.zeros((), dtype=_STATE_LAYOUT)
        if self._position is None:
            pos = int(state["pos"])
            record["left"], record["next"] = STATE_WORDS + 1 - pos, pos
        else:
            record["left"], record["next"] = self._position
        record["initial_seed"] = self._seed
        record["seeded"] = 1
        record["state"] = state["key"]
        if self.next_double_normal_sample is not None:
            record["normal_is_valid"] = 1
            record["normal_y"] = self.next_double_normal_sample
        if self.next_float_normal_sample is not None:
            record["next_float_valid"] = 1
            record["next_float"] = self.next_float_normal_sample
        return np.frombuffer(record.tobytes(), dtype=np.uint8).copy()

    def set_state(self, new_state) -> "Generator":
        """Restore a state made by `get_state` (here or in torch), and return the generator."""
        from .dtype import uint8
        if getattr(new_state, "_dtype", None) is not uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state.numel() != STATE_BYTES:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_BYTES} but "
                               f"found the input RNG state size to be {new_state.numel()}")
        raw = np.ascontiguousarray(new_state._np).view(_STATE_LAYOUT)[0]
        left, next_, seeded = int(raw["left"]), int(raw["next"]) & 0xFFFFFFFF, int(raw["seeded"])
        if not (seeded and 0 < left <= STATE_WORDS and next_ <= STATE_WORDS):
            raise RuntimeError("Invalid mt19937 state")
        self._seed = int(raw["initial_seed"])
        self._load(raw["state"].astype(np.uint32), left, next_)
        self.next_double_normal_sample = (float(raw["normal_y"]) if raw["normal_is_valid"]
                                          else None)
        self.next_float_normal_sample = (float(raw["next_float"]) if raw["next_float_valid"]
                                         else None)
        return self

    def clone_state(self) -> "Generator":
        """A new generator in the same state as this one."""
        twin = Generator()
        twin.set_state(self.get_state())
        return twin

    def get_offset(self) -> int:
        """CPU generators have no offset (that is a counter-based engine's notion)."""
        raise RuntimeError("CPU Generator does not use offset")

    def set_offset(self, offset: int) -> "Generator":
        """CPU generators have no offset (that is a counter-based engine's notion)."""
        raise RuntimeError("CPU Generator does not use offset")


def _engine_state(words: np.ndarray, pos: int) -> dict:
    """NumPy's MT19937 state for ATen's state words at position `pos`."""
    return {"bit_generator": "MT19937", "state": {"key": words, "pos": pos}}


default_generator = Generator()
default_generator.manual_seed(nondeterministic_seed())


def generator_or_default(generator: Generator | None) -> Generator:
    """The generator an operator draws from: the one given, or the default."""
    return default_generator if generator is None else generator
