"""Everything that talks to the world: settings, store, the croupier service and its front ends."""
