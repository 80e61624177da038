"""Shared tools for reading the forum words: normalisation and lenient name matching.

Each game keeps its own vocabulary (``engine/verflixte6/words.py``, ``engine/killer/words.py``); what
they share — folding case, umlauts and punctuation, suggesting the closest name, and recognising a
near miss of a command word ("wieter" for "weiter") — lives here.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache

from engine.errors import CroupierError
from engine.game import Choice, Command

_UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
_PUNCTUATION = re.compile(r"[^\w@<>#!&\- ]+")
_SPACES = re.compile(r"\s+")


_FOLDS_KEPT = 4096  # folded words and short lines remembered (parsing folds the same ones again)
_FOLD_KEPT_LENGTH = 100  # characters; a longer text is folded afresh each time, never kept


def fold(text: str) -> str:
    """Lower-case, spell umlauts as ae/oe/ue/ss, drop other accents and punctuation, squeeze spaces.

    ``fold("Weiter mit Joker: Jules Törtchen!") == "weiter mit joker jules toertchen"``
    """
    return _kept_fold(text) if len(text) <= _FOLD_KEPT_LENGTH else _fold(text)


@lru_cache(maxsize=_FOLDS_KEPT)
def _kept_fold(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    text = text.casefold()
    text = "".join(_UMLAUTS.get(ch, ch) for ch in text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("'", "").replace("´", "").replace("`", "").replace("’", "")
    text = _PUNCTUATION.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def closest(word: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """The candidates that look most like ``word`` (by folded spelling), best first — only those that
    resemble it (:func:`resembles`)."""
    return list(_closest(fold(word), tuple(candidates), limit))


@lru_cache(maxsize=256)  # a misspelt name is often typed again; difflib takes a millisecond
def _closest(word: str, candidates: tuple[str, ...], limit: int) -> tuple[str, ...]:
    by_fold: dict[str, str] = {}
    for candidate in candidates:
        by_fold.setdefault(fold(candidate), candidate)
    alike = [f for f in by_fold if resembles(word, f)]
    ranked = difflib.get_close_matches(word, alike, n=limit, cutoff=0.5)
    if not ranked:  # "sekante" for "Senigmas Sekante": alike, but too short beside it for difflib
        ranked = sorted(alike, key=lambda f: -difflib.SequenceMatcher(None, word, f).ratio())[:limit]
    return tuple(by_fold[m] for m in ranked)


_NOT_LETTERS = re.compile(r"[^\w]+")


def resembles(word: str, candidate: str) -> bool:
    """Whether a misspelt ``word`` looks like ``candidate`` (both folded): a few edits — a third of the
    letters, at least one — from the candidate or from one of its words ("sekamte"), or from its
    beginning where one of the two is cut short or runs on ("rattenl", "anna2", "an"); or written
    inside it ("allin" in "all in joker"). Letters in common are not enough: "all" does not look like "leela",
    though difflib rates them alike."""
    typed = _NOT_LETTERS.sub("", word)
    if not typed:
        return False
    allowed = max(1, len(typed) // 3)
    whole = _NOT_LETTERS.sub("", candidate)
    if len(typed) >= 3 and typed in whole:
        return True
    for part in {whole, *(_NOT_LETTERS.sub("", w) for w in candidate.split())}:
        if distance(typed, part, allowed) <= allowed or (len(typed) >= 2 and part.startswith(typed)):
            return True
        shorter = min(len(typed), len(part))
        if shorter >= 3 and len(typed) != len(part):
            cut = max(1, shorter // 3)
            if distance(typed[:shorter], part[:shorter], cut) <= cut:
                return True
    return False


def distance(a: str, b: str, limit: int | None = None) -> int:
    """The edit distance of two words, a swap of neighbours counting as one edit ("wieter" → 1).

    With ``limit``, any distance above it is reported as ``limit + 1``, and the work is bounded: words
    whose lengths differ by more than ``limit`` are answered without comparing a single letter (a
    2,000-letter first word costs nothing), and the comparison stops at the first row that is already
    over the limit."""
    if a == b:
        return 0
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, previous2[j - 2] + 1)
            current.append(cost)
        if limit is not None and min(current) > limit and min(previous) > limit:
            return limit + 1  # two rows over the limit: no later edit or swap comes back under it
        previous2, previous = previous, current
    found = previous[-1]
    return found if limit is None else min(found, limit + 1)


def tolerance(word: str) -> int:
    """How many edits a typed word may be off: one for short words ("bas", "haut"), else two."""
    return 1 if len(word) <= 4 else 2


def near(typed: str, word: str) -> int | None:
    """The edits between a typed (folded) word and a game word, when within :func:`tolerance`; else
    None. Bounded work, whatever the length of ``typed``."""
    allowed = tolerance(word)
    edits = distance(typed, word, allowed)
    return edits if edits <= allowed else None


Accepts = Callable[[Command], bool]  # whether a command is one the game takes now


def _read(parse: Callable[[str], Command | None], text: str) -> Command | None:
    try:
        return parse(text)
    except CroupierError:
        return None


def _reads(parse: Callable[[str], Command | None], text: str) -> bool:
    return _read(parse, text) is not None


def valid_now(choices: Callable[[], Sequence[Choice]], parse: Callable[[str], Command | None]) -> Accepts:
    """Whether a command is of a kind the player to act may send now: one of the kinds the game's
    ``choices`` send (each choice's words are a line the game accepts at this moment), or a question,
    which is always welcome. A near miss offers only such words: "attaque" is no answer in a keep
    phase. The choices are worked out at the first question, so a line without a candidate costs none."""
    kinds: set[type[Command]] = set()
    known = False

    def accepts(command: Command) -> bool:
        nonlocal known
        if not known:
            for choice in choices():
                read = _read(parse, choice.compose([choice.words]) if choice.multi else choice.words)
                if read is not None:
                    kinds.add(type(read))
            known = True
        return type(command) in kinds or command.query

    return accepts


def near_miss(
    text: str,
    parse: Callable[[str], Command | None],
    vocabulary: Mapping[str, str],
    *,
    lead: Iterable[str] = (),
    accepts: Accepts | None = None,
) -> str | None:
    """The game word a line that is no command probably meant, or None.

    ``vocabulary`` maps folded spellings (one or two words: "weiter", "garde tout", "attack") to the
    word shown to the player ("weiter", "garde tout", "attaque"). A line is a near miss when it does
    not read as a command, its first word — or first two, for a two-word spelling — is at most two
    edits away from a spelling (one for words of four letters or fewer; the meant word itself,
    followed by chit-chat, is chit-chat; another spelling such as "attack" counts), and the line with
    the meant word in its place reads as a command — one that ``accepts`` takes, when given (the
    game's :func:`valid_now`). ``lead`` words ("ich", "je") may come first and are kept.
    """
    if _reads(parse, text):
        return None
    words = fold(text).replace("!", " ").split()
    skipped: list[str] = []
    leading = frozenset(lead)
    while words and words[0] in leading:
        skipped.append(words.pop(0))
    if not words:
        return None
    best: tuple[int, int, str] | None = None
    for spelling, meant in vocabulary.items():
        parts = spelling.split()
        typed = words[: len(parts)]
        if len(typed) < len(parts):
            continue
        edits = [near(t, p) for t, p in zip(typed, parts, strict=True)]
        if None in edits:
            continue
        total = sum(e for e in edits if e is not None)
        right = fold(meant)
        if total > 2:
            continue
        if total == 0 and spelling == right:  # the word itself: the rest of the line is chat
            continue
        corrected = _read(parse, " ".join([*skipped, right, *words[len(parts) :]]))
        if corrected is None or (accepts is not None and not accepts(corrected)):
            continue
        candidate = (total, -len(parts), meant)
        if best is None or candidate < best:
            best = candidate
    return best[2] if best is not None else None
