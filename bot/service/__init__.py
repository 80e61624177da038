"""The croupier service: what every front end's requests go through, between the front ends and the store."""
