"""The terminal front ends: the console channel, ``croupier replay`` and ``croupier odds``."""
