"""Reading the croupier's endpoint as Prometheus and a supervisor would: ``/metrics`` parsed with
prometheus-client's own parser, ``/readyz`` as JSON, and waiting for readiness to change."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
PATIENCE_S = 45.0  # a safety net: discord.py reconnects with a randomised backoff of a few seconds


async def scrape(url: str) -> Samples:
    """Every sample of ``url``/metrics by (name, labels)."""
    async with aiohttp.ClientSession() as session, session.get(f"{url}/metrics") as answer:
        assert answer.status == 200, answer.status
        assert answer.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = await answer.text()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    """How far a counter moved between two scrapes."""
    return value(after, name, **labels) - value(before, name, **labels)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of a metric's samples whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, found), v in samples.items() if n == name and wanted <= found)


async def readiness(url: str) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.get(f"{url}/readyz") as answer:
        return answer.status, await answer.json()


async def liveness(url: str) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.get(f"{url}/livez") as answer:
        return answer.status, await answer.json()


async def until_ready(url: str, ready: bool, patience: float = PATIENCE_S) -> dict[str, Any]:
    """Ask ``/readyz`` until it says ``ready`` (True or False); its last answer."""
    status, body = 0, {}
    try:
        async with asyncio.timeout(patience):
            while True:
                status, body = await readiness(url)
                if (status == 200) == ready:
                    assert body["ready"] is ready, body
                    return body
                await asyncio.sleep(0.1)
    except TimeoutError:
        raise AssertionError(f"readiness stayed {status}: {body}") from None


def failing(body: Mapping[str, Any]) -> dict[str, str]:
    """The failing conditions of a readiness answer, by name, with what is the matter."""
    return {c["name"]: c["detail"] for c in body["conditions"] if not c["ok"]}
