"""The gateway side: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME with replay, zlib-stream.

One `Session` per successful IDENTIFY (it survives its websocket so a client can RESUME it and receive what
was dispatched while it was away); one `Connection` per websocket. Each shard identifies a session of its
own and gets only its guilds' events, so Discord can invalidate one shard's session while the others
stay connected (`invalidate_shard`).

Discord's documentation followed here:
- https://discord.com/developers/docs/events/gateway#resuming — "If successful, the Gateway will send the
  missed events in order, finishing with a Resumed event" (`_resume`); a session that cannot be resumed
  gets Invalid Session with `d` false and must identify again.
- https://discord.com/developers/docs/events/gateway-events#invalid-session — op 9, `d`: whether the
  session may be resumed.
- https://discord.com/developers/docs/events/gateway#sharding — a shard is its own gateway connection
  identified with `shard: [shard_id, num_shards]`; a guild's events go to shard
  `(guild_id >> 22) % num_shards` only.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from .journal import Journal
from .snowflakes import shard_of

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

BACKLOG = 5000


@dataclass(frozen=True)
class GatewayRecord:
    """Something that happened on the gateway: kind is connect, identify, resume, resumed, invalid_session,
    heartbeat, presence, request_members, dispatch, reconnect_request, close or refused (an outage)."""

    kind: str
    session_id: str | None
    shard: tuple[int, int] | None
    data: Any = None
    path: str = ""


class Connection:
    """One websocket. Sends are serialised because zlib-stream is one deflate stream per socket."""

    def __init__(self, ws: web.WebSocketResponse, *, compress: bool, path: str) -> None:
        self.ws = ws
        self.path = path
        self.session: Session | None = None
        self.closed_by_server = False
        self._deflate = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()

    async def send(self, text: str) -> bool:
        async with self._lock:
            if self.ws.closed:
                return False
            try:
                if self._deflate is not None:
                    data = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return False
            return True

    async def send_json(self, payload: dict[str, Any]) -> bool:
        return await self.send(json.dumps(payload, separators=(",", ":")))

    async def close(self, code: int, reason: str = "") -> None:
        self.closed_by_server = True
        if not self.ws.closed:
            await self.ws.close(code=code, message=reason.encode())


@dataclass
class Session:
    id: str
    shard: tuple[int, int]
    intents: int
    large_threshold: int
    properties: dict[str, Any]
    seq: int = 0
    connection: Connection | None = None
    resumable: bool = True
    resumes: int = 0
    backlog: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=BACKLOG))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def wants(self, intent: int) -> bool:
        return intent == 0 or self.intents & intent == intent

    def covers(self, guild_id: int | None) -> bool:
        shard_id, count = self.shard
        return (0 if guild_id is None else shard_of(guild_id, count)) == shard_id

    async def dispatch_locked(self, event: str, data: Any) -> None:
        """Number, remember and (when connected) send one event; the caller holds `lock`."""
        self.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data}, separators=(",", ":"))
        self.backlog.append((self.seq, text))
        if self.connection is not None:
            await self.connection.send(text)


class GatewayBackend(Protocol):
    """What the gateway asks the rest of the emulator."""

    token: str
    allowed_privileged_intents: int
    heartbeat_interval_ms: int
    ack_heartbeats: bool

    def ready_payload(self, session: Session, resume_url: str) -> dict[str, Any]: ...

    def initial_guild_creates(self, session: Session) -> list[dict[str, Any]]: ...

    def member_chunks(self, session: Session, request: dict[str, Any]) -> list[dict[str, Any]]: ...


class Gateway:
    def __init__(self, backend: GatewayBackend, resume_url: Callable[[], str]) -> None:
        self.backend = backend
        self.resume_url = resume_url
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.records: Journal[GatewayRecord] = Journal("gateway")
        self.unreachable = False  # an outage: see cut_off()
        # Cleared by a test to hold RESUMEs until it set it again (a reconnect that takes a while).
        self.resumes_open = asyncio.Event()
        self.resumes_open.set()

    async def _record(self, kind: str, conn: Connection | None, data: Any = None) -> None:
        session = conn.session if conn else None
        await self.records.append(
            GatewayRecord(
                kind,
                session.id if session else None,
                session.shard if session else None,
                data,
                conn.path if conn else "",
            )
        )

    # websocket lifecycle ------------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self.unreachable:  # the edge answers, the gateway behind it does not
            await self._record("refused", None, {"status": 503})
            return web.Response(status=503, text="503 Service Unavailable")
        ws = web.WebSocketResponse(timeout=2.0, max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        compress = request.query.get("compress")
        conn = Connection(ws, compress=compress == "zlib-stream", path=request.path)
        self.connections.add(conn)
        await self._record("connect", conn, dict(request.query))
        client_code: int | None = None
        try:
            if request.query.get("encoding", "json") != "json":
                await conn.close(4002, "Error while decoding payload.")
                return ws
            await conn.send_json(
                {
                    "op": HELLO,
                    "d": {"heartbeat_interval": self.backend.heartbeat_interval_ms, "_trace": ["emulator"]},
                    "s": None,
                    "t": None,
                }
            )
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    try:
                        payload = json.loads(message.data)
                    except ValueError:
                        await conn.close(4002, "Error while decoding payload.")
                        break
                    await self._on_payload(conn, payload)
                    if conn.closed_by_server:
                        break
                elif message.type is WSMsgType.BINARY:
                    await conn.close(4002, "Error while decoding payload.")
                    break
            if not conn.closed_by_server:
                client_code = ws.close_code
        finally:
            self.connections.discard(conn)
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                if client_code in (1000, 1001):
                    session.resumable = False  # a clean client close ends the session, as on Discord
            await self._record(
                "close", conn, {"code": client_code if client_code is not None else ws.close_code}
            )
        return ws

    async def _on_payload(self, conn: Connection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == HEARTBEAT:
            await self._record("heartbeat", conn, data)
            if self.backend.ack_heartbeats:
                await conn.send_json({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await conn.close(4003, "Not authenticated.")
        elif op == PRESENCE_UPDATE:
            await self._record("presence", conn, data)
        elif op == VOICE_STATE_UPDATE:
            await self._record("voice_state", conn, data)
        elif op == REQUEST_GUILD_MEMBERS:
            await self._record("request_members", conn, data)
            session = conn.session
            async with session.lock:
                for chunk in self.backend.member_chunks(session, data or {}):
                    await session.dispatch_locked("GUILD_MEMBERS_CHUNK", chunk)
        else:
            await conn.close(4001, "Unknown opcode.")

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.close(4005, "Already authenticated.")
            return
        if data.get("token") != self.backend.token:
            await self._record("identify", conn, {"refused": 4004})
            await conn.close(4004, "Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            await conn.close(4013, "Invalid intent(s).")
            return
        if intents & PRIVILEGED & ~self.backend.allowed_privileged_intents:
            await self._record("identify", conn, {"refused": 4014, "intents": intents})
            await conn.close(4014, "Disallowed intent(s).")
            return
        shard = data.get("shard") or [0, 1]
        if (
            not isinstance(shard, list)
            or len(shard) != 2
            or not all(isinstance(n, int) for n in shard)
            or not 0 <= shard[0] < shard[1]
        ):
            await conn.close(4010, "Invalid shard.")
            return
        session = Session(
            id=secrets.token_hex(16),
            shard=(shard[0], shard[1]),
            intents=intents,
            large_threshold=int(data.get("large_threshold", 50)),
            properties=dict(data.get("properties") or {}),
        )
        self.sessions[session.id] = session
        conn.session = session
        session.connection = conn
        await self._record("identify", conn, {k: v for k, v in data.items() if k != "token"})
        async with session.lock:
            await session.dispatch_locked("READY", self.backend.ready_payload(session, self.resume_url()))
            for guild in self.backend.initial_guild_creates(session):
                await session.dispatch_locked("GUILD_CREATE", guild)

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        await self.resumes_open.wait()
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq") or 0
        valid = (
            session is not None
            and session.resumable
            and data.get("token") == self.backend.token
            and isinstance(seq, int)
            and seq <= session.seq
            and (not session.backlog or session.backlog[0][0] <= seq + 1)
        )
        if not valid or session is None:
            await self._record("invalid_session", conn, {"session_id": data.get("session_id"), "seq": seq})
            await conn.send_json({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        previous = session.connection
        if previous is not None and previous is not conn:
            session.connection = None
            await previous.close(4000, "Session resumed elsewhere.")
        conn.session = session
        await self._record("resume", conn, {"seq": seq})
        async with session.lock:
            session.connection = conn
            session.resumes += 1
            for number, text in list(session.backlog):
                if number > seq:
                    await conn.send(text)
            await session.dispatch_locked("RESUMED", {"_trace": ["emulator"]})
        await self._record("resumed", conn, {"replayed_after": seq})

    # dispatching --------------------------------------------------------------------------------------------

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """Live or resumable sessions of the shard that owns the guild (shard 0 for direct messages)."""
        return [s for s in self.sessions.values() if s.resumable and s.covers(guild_id)]

    async def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: int | None,
        intent: int = 0,
        view: Callable[[Session, dict[str, Any]], dict[str, Any]] | None = None,
    ) -> int:
        """Send an event to each subscribed session of the guild's shard; returns how many got it."""
        delivered = 0
        for session in self.sessions_for(guild_id):
            if not session.wants(intent):
                continue
            shaped = view(session, data) if view else data
            async with session.lock:
                await session.dispatch_locked(event, shaped)
            delivered += 1
            await self.records.append(
                GatewayRecord("dispatch", session.id, session.shard, {"t": event, "d": shaped})
            )
        return delivered

    # faults -------------------------------------------------------------------------------------------------

    async def disconnect_all(self, code: int = 4000) -> int:
        """Drop every websocket (sessions stay resumable unless the code says otherwise)."""
        live = list(self.connections)
        await asyncio.gather(*(c.close(code, "Emulated gateway drop.") for c in live), return_exceptions=True)
        return len(live)

    async def cut_off(self) -> int:
        """An outage of the gateway as a client lives through it: every websocket drops and every new
        connection is refused (503) until :meth:`restore`. Not a behaviour Discord documents, but what
        its gateway docs expect a client to survive: it reconnects and resumes, retrying with backoff
        (https://discord.com/developers/docs/events/gateway#disconnections). Sessions stay resumable."""
        self.unreachable = True
        return await self.disconnect_all(4000)

    def restore(self) -> None:
        """End the outage: connections are accepted again."""
        self.unreachable = False

    async def request_reconnect(self) -> int:
        live = [c for c in self.connections if c.session is not None]
        for conn in live:
            await self._record("reconnect_request", conn)
            await conn.send_json({"op": RECONNECT, "d": None, "s": None, "t": None})
        return len(live)

    async def invalidate_sessions(self) -> int:
        """Forget every session: connected clients get INVALID_SESSION and must IDENTIFY again."""
        return await self._invalidate(lambda session: True)

    async def invalidate_shard(self, shard_id: int) -> int:
        """Forget the sessions of one shard only (Discord invalidates sessions one by one, e.g. when a
        shard's connection could not resume in time): its connection gets INVALID_SESSION (d false) and
        must IDENTIFY again; the other shards' sessions stay connected and keep their events. Events of
        the shard's guilds meanwhile reach nobody, and no RESUME replays them."""
        return await self._invalidate(lambda session: session.shard[0] == shard_id)

    async def _invalidate(self, which: Callable[[Session], bool]) -> int:
        for session in self.sessions.values():
            if which(session):
                session.resumable = False
        live = [c for c in self.connections if c.session is not None and which(c.session)]
        for conn in live:
            await self._record("invalid_session", conn, {"forced": True})
            await conn.send_json({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
        return len(live)

    async def close(self) -> None:
        await self.disconnect_all(1001)
