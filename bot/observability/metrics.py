"""The croupier's Prometheus metrics: names and labels by Prometheus' conventions, every label from a
small fixed set — never a player's text, a name or an id — so the number of series stays bounded.

Counters live in prometheus-client's default registry (with its process and Python collectors);
what is only known when asked (backlogs, shard states, open games) is read at scrape time by
:class:`~bot.observability.health.Health`. The hot path increments cached children (:class:`Children`):
a label lookup costs more than the increment itself.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata
from typing import Any, Generic, TypeVar

from prometheus_client import Counter, Histogram, Info

M = TypeVar("M")

NO_GAME = "none"  # the game label of a request in a channel without an open game
FRONT_ENDS = ("discord", "console", "replay", "turn_clock", "other")
# Where a request came from, by the prefix of its message id (the exactly-once key every front end sets).
_FRONT_OF_PREFIX = {
    "discord": "discord",
    "interaction": "discord",
    "console": "console",
    "replay": "replay",
    "timeout": "turn_clock",
}
# Seconds: a move answered on a quiet machine takes milliseconds; Discord's own round trips add tenths;
# retries and rate-limit waits reach seconds and minutes.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)


def front_end_of(message_id: str) -> str:
    """The front end a message id belongs to (``discord:…``, ``interaction:…``, ``console:…`` …)."""
    return _FRONT_OF_PREFIX.get(message_id.partition(":")[0], "other")


class Children(dict[Any, Any], Generic[M]):
    """A metric's children by label value, made on first use: ``MOVES_BY["console"]["killer"].inc()``
    is two dictionary hits instead of a ``labels()`` call."""

    def __init__(self, make: Callable[[Any], M]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: Any) -> M:
        child = self[key] = self._make(key)
        return child


# --- the service ------------------------------------------------------------------------------------

MOVES = Counter(
    "croupier_moves", "Commands applied to a game (joins, throws, timeouts …)", ["game", "front_end"]
)
REFUSALS = Counter(
    "croupier_refusals",
    "Requests refused with a reason and recorded; nothing changed (game: the open game, or none)",
    ["game", "front_end"],
)
ANSWER_LATENCY = Histogram(
    "croupier_answer_latency_seconds",
    "From a message's arrival at the front end to its answer's post",
    ["front_end"],
    buckets=LATENCY_BUCKETS,
)
UNITS_OF_WORK = Counter("croupier_units_of_work", "Units of work run by the store", ["mode"])
COMMITS = Counter("croupier_commits", "Transactions committed by the store")

MOVES_BY: Children[Children[Any]] = Children(
    lambda front: Children(lambda game: MOVES.labels(game=game, front_end=front))
)
REFUSALS_BY: Children[Children[Any]] = Children(
    lambda front: Children(lambda game: REFUSALS.labels(game=game, front_end=front))
)
LATENCY_BY: Children[Any] = Children(lambda front: ANSWER_LATENCY.labels(front_end=front))
READ_UNITS = UNITS_OF_WORK.labels(mode="read")
WRITE_UNITS = UNITS_OF_WORK.labels(mode="write")

# --- delivery (the Discord front end) -------------------------------------------------------------------

# The classes of bot/discord/failures.py: which are tried again, which end as undeliverable.
RETRIED_CLASSES = ("transient", "permission")
UNDELIVERABLE_CLASSES = ("permanent", "refused")
DELIVERY_RETRIES = Counter(
    "croupier_delivery_retries",
    "Posts tried again after a failure, by class (transient: Discord's trouble or no answer, tried "
    "again with backoff; permission: tried again when the channel is released or probed)",
    ["class"],
)
UNDELIVERABLE = Counter(
    "croupier_answers_undeliverable",
    "Posts given up for good, by class (permanent: the channel or guild is gone; refused: a request "
    "Discord will never take)",
    ["class"],
)
for _class in RETRIED_CLASSES:
    DELIVERY_RETRIES.labels(_class)
for _class in UNDELIVERABLE_CLASSES:
    UNDELIVERABLE.labels(_class)

# --- catching up, interactions, Discord's limits ----------------------------------------------------------

CATCH_UP_RUNS = Counter(
    "croupier_catch_up_runs",
    "Catch-ups of a shard's new session (its first, or after Discord invalidated the old one)",
    ["shard"],
)
CATCH_UP_LINES = Counter(
    "croupier_catch_up_lines", "Lines read from a channel's history while a shard caught up", ["shard"]
)
INTERACTION_KINDS = ("command", "component")
INTERACTIONS_DEFERRED = Counter(
    "croupier_interactions_deferred",
    "Interactions deferred because their answer was not ready in time",
    ["kind"],
)
INTERACTIONS_EXPIRED = Counter(
    "croupier_interactions_expired", "Interactions that could no longer be answered through their token"
)
for _kind in INTERACTION_KINDS:
    INTERACTIONS_DEFERRED.labels(_kind)

RATE_LIMIT_SCOPES = ("user", "global", "shared")
RATE_LIMITED = Counter(
    "croupier_discord_rate_limited", "HTTP 429 answers from Discord, by X-RateLimit-Scope", ["scope"]
)
INVALID_STATUSES = ("401", "403", "429")
INVALID_REQUESTS = Counter(
    "croupier_discord_invalid_requests",
    "Requests Discord counts against the invalid request limit (401, 403, and 429 but shared-scope ones)",
    ["status"],
)
for _scope in RATE_LIMIT_SCOPES:
    RATE_LIMITED.labels(_scope)
for _status in INVALID_STATUSES:
    INVALID_REQUESTS.labels(_status)

SHARD_DISCONNECTS = Counter(
    "croupier_discord_shard_disconnects", "Gateway connections of a shard that ended", ["shard"]
)


def _version() -> str:
    try:
        return metadata.version("croupier")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


BUILD = Info("croupier_build", "The croupier's version")
BUILD.info({"version": _version()})
