"""The games' tests share Pig installed as a plugin (:mod:`tests.games.plugins`)."""

from tests.games.plugins import pig_plugin  # noqa: F401  (the fixture)
