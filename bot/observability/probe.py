"""``croupier healthcheck``: ask the running croupier whether it is ready.

With HEALTH_PORT set it asks that process's ``/readyz`` (on the loopback when it listens everywhere):
ready is exit code 0, not ready is 1 with each failing condition on stderr, and so is a process that
accepts the connection but does not answer in time (its event loop is stuck). When nothing listens
there — no croupier runs here, or it has not started its endpoint yet — it falls back to what the
check did before the endpoint existed: the database answers and its schema is current. That is also
all it checks without HEALTH_PORT.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass

ASK_TIMEOUT_S = 5.0  # well inside docker-compose's healthcheck timeout (10 s)


@dataclass(frozen=True)
class Asked:
    """What the process said: ``ready``, or why not (``problem``); ``absent`` when nothing listens."""

    ready: bool = False
    problem: str = ""
    absent: bool = False


def ask(url: str, timeout: float = ASK_TIMEOUT_S) -> Asked:
    """GET ``url``/readyz and read the answer."""
    try:
        with urllib.request.urlopen(f"{url}/readyz", timeout=timeout) as answer:
            return Asked(ready=answer.status == 200)
    except urllib.error.HTTPError as error:
        if error.code != 503:
            return Asked(problem=f"{url}/readyz answered HTTP {error.code}")
        return Asked(problem=_summary(error.read()))
    except urllib.error.URLError as error:
        if isinstance(error.reason, ConnectionRefusedError):
            return Asked(absent=True)
        if isinstance(error.reason, TimeoutError):
            return Asked(problem=f"the croupier on {url} did not answer within {timeout:g} s")
        return Asked(problem=f"cannot ask {url}: {error.reason}")
    except ConnectionRefusedError:
        return Asked(absent=True)
    except TimeoutError:
        return Asked(problem=f"the croupier on {url} did not answer within {timeout:g} s")
    except OSError as error:
        return Asked(problem=f"cannot ask {url}: {error}")


def _summary(body: bytes) -> str:
    """The failing conditions of a 503 answer, in one line."""
    try:
        data = json.loads(body)
        failing = [c for c in data["conditions"] if not c["ok"]]
        return "not ready: " + "; ".join(f"{c['name']}: {c['detail']}" for c in failing)
    except (ValueError, KeyError, TypeError):
        return "not ready"
