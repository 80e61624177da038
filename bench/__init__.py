"""Benchmarks: each module's ``main()`` prints one JSON line per figure; ``python -m bench`` runs them all."""
