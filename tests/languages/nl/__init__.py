"""Dutch, a fourth language added as docs/adding-a-language.md says — in a package of its own, the way
a translation kept outside the repository would come: its catalogues in this folder and one registry
entry (:data:`DUTCH`), registered by an entry point (tests/languages/test_fourth_language.py)."""

from __future__ import annotations

from bot.texts.languages import Language

DUTCH = Language("nl", "nl_NL", ("nl",), "Nederlands", texts="tests.languages.nl")
