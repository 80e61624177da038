"""Database URLs as people may see them: every password replaced by ``***``.

A URL is shown in the CLI's output, the console banner, error messages and logs; none of them may
carry its password. Operators write URLs by hand, so the masking does not trust them to be well
formed: a password may hold a raw ``@``, ``/`` or ``?`` (SQLAlchemy itself would split such a URL at the
first ``@``), and a password may also be given as a query parameter (``?password=…``).
"""

from __future__ import annotations

import re
from typing import Any

MASK = "***"

# A URL inside free text: a scheme, "://", then everything up to the next blank, without the
# punctuation of the sentence after it ("…/x?password=***: refused" keeps its colon).
_URL_IN_TEXT = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://\S+?(?=[.,:;!?)\]'\"]*(?:\s|$))")
# Parameters that hold secrets: password, sslpassword, passwd, pwd, secret, token, auth… in a URL's
# query, or in libpq's "host=db password=…" form.
_SECRET_PARAMETER = re.compile(
    r"(?i)((?:^|[?&;\s])[^=&#;\s]*(?:pass|pwd|secret|token|auth)[^=&#;\s]*\s*=\s*)[^&#;\s]*"
)


def mask_url(url: Any) -> str:
    """The URL as a user would recognise it, with every password replaced by ``***``.

    Accepts a string or a SQLAlchemy ``URL`` (rendered with its password, then masked here, because
    SQLAlchemy's own ``hide_password`` keeps query parameters and misreads a raw ``@``). Masking a
    masked URL changes nothing.
    """
    render = getattr(url, "render_as_string", None)
    text = render(hide_password=False) if callable(render) else str(url)
    return _mask_query(_mask_userinfo(text))


def mask_urls_in(text: str) -> str:
    """``text`` with every URL in it masked (error messages, log lines)."""
    return _URL_IN_TEXT.sub(lambda match: mask_url(match.group(0)), text)


def _mask_userinfo(text: str) -> str:
    scheme = text.find("://")
    if scheme < 0:
        return text
    start = scheme + 3
    # The user information ends at the last "@" before the query; a password may hold "@", "/" or
    # "?" itself, so when no "@" comes before the first "?" the last "@" of all is taken.
    query = text.find("?", start)
    at = text.rfind("@", start, query) if query >= 0 else -1
    if at < 0:
        at = text.rfind("@", start)
    if at < 0:
        return text
    colon = text.find(":", start, at)
    if colon < 0:
        return text  # a user name only: nothing secret
    return f"{text[: colon + 1]}{MASK}{text[at:]}"


def _mask_query(text: str) -> str:
    return _SECRET_PARAMETER.sub(rf"\g<1>{MASK}", text)
