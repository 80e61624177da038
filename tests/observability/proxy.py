"""A TCP door in front of the test PostgreSQL server, to take the database away and give it back.

Closing the door drops every connection through it and refuses new ones (the server "is gone", as
when its host is unreachable); opening it forwards again. The server itself is never touched.
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from typing import Self


class Door:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.listen_port = 0
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.StreamWriter] = set()

    async def open(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.listen_port)
        self.listen_port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        """Drop every connection and stop listening (new connections are refused)."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for writer in list(self._pipes):
            writer.transport.abort()
        self._pipes.clear()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.transport.abort()
            return
        self._pipes |= {writer, upstream_writer}
        await asyncio.gather(
            self._pump(reader, upstream_writer), self._pump(upstream_reader, writer), return_exceptions=True
        )

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        finally:
            self._pipes.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()
