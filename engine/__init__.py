"""The rules of the croupier's games, and nothing else.

Pure on purpose: no I/O, no asyncio, no clock, no global random. Every die comes from a
:class:`engine.dice.DiceSource` handed in by the caller, so every rule can be pinned with scripted dice
and every game rebuilt from its log.
"""
