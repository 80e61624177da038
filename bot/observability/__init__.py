"""What an operator sees of a running croupier: metrics, health and machine-readable logs.

* :mod:`~bot.observability.metrics` — the Prometheus metrics, with bounded labels only;
* :mod:`~bot.observability.requests` — each request the service settled: counted and logged once;
* :mod:`~bot.observability.answers` — how long an answer took from the message's arrival to its post;
* :mod:`~bot.observability.delivery` — retries and undeliverable posts by failure class, and the
  bounded reasons of held channels (the Discord front end classifies and holds; this only counts);
  :mod:`~bot.observability.interactions` — interactions deferred and expired;
  :mod:`~bot.observability.catch_up` — catch-up runs and lines per shard;
  :mod:`~bot.observability.limits` — 429s by scope and invalid requests by status;
* :mod:`~bot.observability.health` — liveness and readiness, each failing condition named;
* :mod:`~bot.observability.endpoint` — ``/livez``, ``/readyz`` and ``/metrics`` over HTTP (the aiohttp
  application in :mod:`~bot.observability.routes`, imported only when an endpoint starts);
* :mod:`~bot.observability.probe` — ``croupier healthcheck``: ask the running process;
* :mod:`~bot.observability.logs` — one line per event, as text or as JSON, never with a secret.

The parts of the bot feed these modules through one-line calls; nothing here imports a front end.
"""
