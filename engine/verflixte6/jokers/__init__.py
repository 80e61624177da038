"""The jokers, one small module each; ``registry.py`` lists them and is the one place to enable one.

This package file stays empty on purpose: the throw logic imports the autojokers' modules directly,
and the registry imports every joker, so keeping the registry out of here avoids an import cycle.
"""
