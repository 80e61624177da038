"""The verifiable dice keep the published recipe (HMAC-SHA256 of ``game:index``, first byte below 252)."""

from __future__ import annotations

import hashlib
import hmac

from engine.dice import VerifiableDice, _hmac_sha256, derive_die


def _recipe(seed: bytes, game: str | int, index: int) -> int:
    """The recipe as the docs state it, through the long-hand ``hmac.new`` object."""
    attempt = 0
    while True:
        message = f"{game}:{index}" if attempt == 0 else f"{game}:{index}:{attempt}"
        for byte in hmac.new(seed, message.encode("ascii"), hashlib.sha256).digest():
            if byte < 252:
                return byte % 6 + 1
        attempt += 1


def test_derive_die_matches_the_published_recipe() -> None:
    for seed in (b"", b"k" * 32, bytes(range(64)), b"x" * 100):
        for game in ("g-1", 7, "thread:123"):
            for index in range(300):
                assert derive_die(seed, game, index) == _recipe(seed, game, index)


def test_keyed_hmac_is_hmac_sha256() -> None:
    """The key blocks hashed once per seed give HMAC's bytes, for keys up to, at and past a block."""
    for length in (0, 1, 32, 63, 64, 65, 200):
        seed = bytes(range(length))
        for message in (b"", b"g:0", b"x" * 130):
            assert _hmac_sha256(seed, message) == hmac.digest(seed, message, "sha256")


def test_verifiable_dice_roll_in_order() -> None:
    dice = VerifiableDice(b"seed", "game", position=5)
    assert [dice.roll() for _ in range(4)] == [_recipe(b"seed", "game", i) for i in range(5, 9)]
    assert dice.position == 9
