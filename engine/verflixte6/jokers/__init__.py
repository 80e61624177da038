"""The jokers, one small module each; ``registry.py`` lists them and is the one place to enable one.

This package file stays empty on purpose: the registry imports every joker, and jokers build on the
step and the throws, so nothing below the registry imports a joker (the step is handed the registry).
"""
