"""Dice sources. The engine asks one for every die; it never touches a random generator itself.

* :class:`ScriptedDice` plays back a list (tests, replay scripts).
* :class:`VerifiableDice` derives die *i* of game *g* from a secret seed: the croupier publishes
  SHA-256(seed) when the game opens and reveals the seed when it closes, so anyone can re-derive every
  die (see :func:`derive_die` for the exact recipe).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from engine.errors import DiceExhausted

if TYPE_CHECKING:
    from hashlib import _Hash  # typeshed's name for a hash object

SIDES = 6
# The largest multiple of 6 not above 256: bytes 252..255 are rejected so every face has 42 byte values.
_ACCEPT_BELOW = 252


class DiceSource(Protocol):
    """Anything that can roll one fair d6."""

    def roll(self) -> int:
        """Return the next die, 1..6."""
        ...


class ScriptedDice:
    """Plays back a fixed list of faces; running out raises :class:`DiceExhausted`."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        for face in self._faces:
            if not 1 <= face <= SIDES:
                raise ValueError(f"a die shows 1..{SIDES}, not {face!r}")
        self.position = 0

    def roll(self) -> int:
        if self.position >= len(self._faces):
            raise DiceExhausted("dice_exhausted", used=self.position)
        face = self._faces[self.position]
        self.position += 1
        return face

    @property
    def left(self) -> int:
        return len(self._faces) - self.position


def commitment(seed: bytes) -> str:
    """The hex SHA-256 of the seed, published before the first die is rolled."""
    return hashlib.sha256(seed).hexdigest()


def derive_die(seed: bytes, game: str | int, index: int) -> int:
    """Die number ``index`` (0-based) of game ``game``.

    Recipe: ``h = HMAC-SHA256(key=seed, msg=f"{game}:{index}")``; take the first byte ``b`` of ``h``
    with ``b < 252`` and answer ``b % 6 + 1``. If all 32 bytes are ≥ 252 (odds 2**-128), repeat with
    ``msg=f"{game}:{index}:{j}"`` for j = 1, 2, …
    """
    attempt = 0
    while True:
        message = f"{game}:{index}" if attempt == 0 else f"{game}:{index}:{attempt}"
        for byte in _hmac_sha256(seed, message.encode("ascii")):
            if byte < _ACCEPT_BELOW:
                return byte % SIDES + 1
        attempt += 1


_BLOCK = 64  # SHA-256's block size, the length of an HMAC key block
_INNER = bytes(byte ^ 0x36 for byte in range(256))  # RFC 2104's ipad, as a byte translation
_OUTER = bytes(byte ^ 0x5C for byte in range(256))  # and its opad


@lru_cache(maxsize=256)
def _keyed(seed: bytes) -> tuple[_Hash, _Hash]:
    """HMAC-SHA256's inner and outer hashes with the seed's key block already hashed (RFC 2104).

    A game rolls all its dice with one seed, and hashing the two key blocks was half the work of a
    die (one-shot ``hmac.digest`` does it for every message); copies of these hashes do the rest."""
    key = hashlib.sha256(seed).digest() if len(seed) > _BLOCK else seed
    key = key.ljust(_BLOCK, b"\0")
    return hashlib.sha256(key.translate(_INNER)), hashlib.sha256(key.translate(_OUTER))


def _hmac_sha256(seed: bytes, message: bytes) -> bytes:
    """``hmac.digest(seed, message, "sha256")``, from the hashes :func:`_keyed` keeps per seed."""
    inner_keyed, outer_keyed = _keyed(seed)
    inner = inner_keyed.copy()
    inner.update(message)
    outer = outer_keyed.copy()
    outer.update(inner.digest())
    return outer.digest()


class VerifiableDice:
    """Dice derived from a secret seed; ``position`` is the index of the next die."""

    def __init__(self, seed: bytes, game: str | int, position: int = 0) -> None:
        self.seed = seed
        self.game = game
        self.position = position

    def roll(self) -> int:
        face = derive_die(self.seed, self.game, self.position)
        self.position += 1
        return face

    @property
    def commitment(self) -> str:
        return commitment(self.seed)


class RecordingDice:
    """Wraps a source and keeps every face it gave out, so events and logs can name them all."""

    def __init__(self, inner: DiceSource) -> None:
        self._inner = inner
        self.faces: list[int] = []

    def roll(self) -> int:
        face = self._inner.roll()
        self.faces.append(face)
        return face


def randbelow(dice: DiceSource, n: int) -> int:
    """A uniform integer in ``0 … n-1`` made of d6 rolls, for shuffling with the game's own dice.

    The dice are read as the digits of a base-6 number just wide enough to reach ``n``; numbers in the
    incomplete top block are rejected and the whole draw is rolled again, so no value is favoured.
    ``n == 1`` consumes no die.
    """
    if n < 1:
        raise ValueError(f"randbelow needs n ≥ 1, not {n!r}")
    digits, span = 0, 1
    while span < n:
        digits += 1
        span *= SIDES
    limit = span - span % n
    while True:
        value = 0
        for _ in range(digits):
            value = value * SIDES + dice.roll() - 1
        if value < limit:
            return value % n
