"""Log lines without secrets, whatever a library or an error message put into them.

The croupier's own messages never carry a secret, but log records also hold exception texts and what
discord.py and the store write: a database URL (its password), the bot token, an interaction token in a
callback or webhook URL or in a dumped gateway event (whoever holds one can answer in the bot's name
for 15 minutes), a channel's web token in a page's path (whoever holds it reads the channel's pages).
:class:`RedactingFormatter` masks all of them in the final text of every record, traceback included;
``croupier`` installs it on its log handler.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

from bot.urls import MASK, mask_urls_in

SECRET_MIN = 8  # shorter "secrets" (a test server's token) are not masked: it would garble every line

# /interactions/<id>/<token>/callback and /webhooks/<application id>/<interaction token>/…
_TOKEN_IN_PATH = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?#'\"]+")
# /t/<web token>/…: the address of a channel's web pages is its secret (whoever has it reads them)
_WEB_TOKEN_IN_PATH = re.compile(r"(/t/)[A-Za-z0-9_-]{16,}")
# "token": "…" in a dumped payload (repr or JSON)
_TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+""")
# "Authorization: Bot …" in a dumped request
_AUTHORIZATION = re.compile(r"(?i)(authorization['\"]?\s*[:=]\s*['\"]?(?:bot|bearer)\s+)[^\s'\"]+")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with database passwords, interaction tokens and the given ``secrets`` masked."""
    for secret in secrets:
        if len(secret) >= SECRET_MIN:
            text = text.replace(secret, MASK)
    text = _TOKEN_IN_PATH.sub(rf"\g<1>{MASK}", text)
    text = _WEB_TOKEN_IN_PATH.sub(rf"\g<1>{MASK}", text)
    text = _TOKEN_FIELD.sub(rf"\g<1>{MASK}", text)
    text = _AUTHORIZATION.sub(rf"\g<1>{MASK}", text)
    return mask_urls_in(text)


class RedactingFormatter(logging.Formatter):
    """A formatter whose output never holds a secret (see :func:`redact`)."""

    def __init__(self, fmt: str | None = None, *, secrets: Iterable[str] = ()) -> None:
        super().__init__(fmt)
        self.secrets = tuple(secret for secret in secrets if secret)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self.secrets)
