"""Why the pages cannot be served: one clear line for the command line, never a traceback."""

from __future__ import annotations

import errno


class CannotServe(Exception):
    """The pages cannot listen on the address asked for (a busy port, an address not on this host)."""

    def __init__(self, host: str, port: int, error: OSError) -> None:
        self.host = host
        self.port = port
        self.busy = error.errno == errno.EADDRINUSE
        shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self.address = shown
        if self.busy:
            why = "the port is in use (another croupier?)"
        elif error.errno == errno.EACCES:
            why = "this user may not listen on that port"
        else:
            why = error.strerror or str(error)
        super().__init__(
            f"cannot serve the tournament pages on {shown}: {why}; stop what listens there or choose a "
            "free port (WEB_PORT=8081, or croupier web --port 8081)"
        )
