#!/usr/bin/env python3
"""Soak test of the hall: real games, bad requests and socket churn at once.

    python3 tests/soak/soak.py QIYUAN_BIN [--seconds 60]

Starts QIYUAN_BIN on a free 127.0.0.1 port with a fresh SQLite file and no
rate limit, warms it up, takes its RSS as the baseline, then for --seconds
runs at the same time:

  * games: pairs of registered users play xiangqi (and Jifen, Banqi) over
    WebSocket, moves picked from the server's `legal` list, some sent by
    HTTP POST /api/games/{id}/moves instead; every move the server
    acknowledged (a state whose `moves` has it, or a 200 for an HTTP move) is
    recorded; games end by resignation or by the rules and new ones start;
  * bad requests over keep-alive connections: malformed JSON, bodies over
    16 KiB, unknown ids, wrong methods, garbage headers, huge numbers,
    bodies on endpoints that ignore them, garbage request lines;
  * socket churn: game WebSockets as spectator, lobby WebSockets, NDJSON
    streams of known and unknown games and events, opened and closed (some
    abruptly, some in bursts);
  * slow clients: connections that send half a request head, half a body,
    or one request and then nothing, held until the server closes them
    (the server runs with 2 s header and body timeouts; each must be closed
    within its timeout and a few seconds of slack);
  * room churn: users open rooms nobody joins and walk away (the server
    closes rooms 2 s after their people have gone; a user's ninth room is a
    429 `too_many_rooms`).

Then everything stops, the server settles, and the test checks: the server
was alive throughout; no 5xx; end RSS at most baseline + max(40 MB, 20 % of
the baseline); its open file descriptors back to the baseline's (+ 16); no
slow connection outlived its timeout; no abandoned room left in the lobby;
every acknowledged move is in GET /api/games/{id}, in order; then the
server is killed with SIGKILL, restarted on the same database, and the moves
are checked again. Exit status 1 on any failure.

Stdlib only (a minimal WebSocket client is below); traffic to 127.0.0.1
only; every loop stops at its deadline.
"""

import argparse
import asyncio
import base64
import json
import os
import random
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

HOST = "127.0.0.1"
MB = 1024 * 1024
# The server's header and body timeouts, and its abandoned-room time, here.
SLOW_TIMEOUT_S = 2
ROOM_IDLE_S = 2


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


class Stats:
    def __init__(self):
        self.requests = 0
        self.bad_requests = 0
        self.sockets = 0
        self.streams = 0
        self.moves_acked = 0
        self.moves_ws = 0
        self.moves_http = 0
        self.moves_refused = 0
        self.moves_unanswered = 0
        self.games = 0
        self.reconnects = 0
        self.slow = 0  # slow connections opened
        self.slow_closed = 0  # ... that the server closed in time
        self.rooms = 0  # rooms opened and left
        self.rooms_capped = 0  # 429 too_many_rooms
        self.server_errors = []  # (what, status, body)
        self.client_errors = {}  # exception class -> count
        self.failures = []

    def error(self, what, status, body):
        self.server_errors.append((what, status, body[:200]))

    def exc(self, e):
        k = type(e).__name__
        self.client_errors[k] = self.client_errors.get(k, 0) + 1


S = Stats()


def fold(prev, f):
    """The game after frame `f`: a `state` is the whole game, a `diff` has
    everything but the move records before its `from`. None when `prev`
    lacks those records."""
    if f.get("t") == "state":
        return f
    if prev is None:
        return None
    records = (prev.get("records") or [])[: f.get("from", 0)] + (f.get("records") or [])
    if len(records) != f.get("plies"):
        return None
    return dict(f, t="state", records=records, moves=[r.get("iccs") for r in records])


# --- HTTP/1.1 over asyncio streams -------------------------------------------

class Closed(Exception):
    pass


async def read_response(reader, head_only=False):
    """(status, headers, body) of one response; raises Closed on EOF first."""
    line = await reader.readline()
    if not line:
        raise Closed()
    parts = line.decode("latin-1").split(" ", 2)
    status = int(parts[1])
    headers = {}
    while True:
        h = await reader.readline()
        if not h:
            raise Closed()
        if h in (b"\r\n", b"\n"):
            break
        k, _, v = h.decode("latin-1").partition(":")
        headers[k.strip().lower()] = v.strip()
    if head_only:
        return status, headers, b""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await reader.readline()
                break
            body += await reader.readexactly(size)
            await reader.readline()
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif status in (101, 204, 304) or 100 <= status < 200:
        body = b""
    else:
        body = await reader.read()
    return status, headers, body


def build_request(method, path, port, body=None, headers=None, close=False):
    h = {"Host": f"{HOST}:{port}"}
    if body is not None:
        h["Content-Type"] = "application/json"
        h["Content-Length"] = str(len(body))
    if close:
        h["Connection"] = "close"
    h.update(headers or {})
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n"
    return head.encode("utf-8", "surrogateescape") + (body or b"")


class Http:
    """One keep-alive connection that reconnects when the server closes it."""

    def __init__(self, port, token=None):
        self.port = port
        self.token = token
        self.r = self.w = None

    async def _connect(self):
        self.r, self.w = await asyncio.open_connection(HOST, self.port)

    def close(self):
        if self.w:
            self.w.transport.abort()
        self.r = self.w = None

    async def raw(self, data, timeout=15):
        """Sends raw request bytes, returns (status, headers, body) or None if closed unanswered."""
        for attempt in (0, 1):
            if self.w is None:
                await self._connect()
            try:
                self.w.write(data)
                await self.w.drain()
                resp = await asyncio.wait_for(read_response(self.r), timeout)
                if resp[1].get("connection", "").lower() == "close":
                    self.close()
                return resp
            except (Closed, ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    return None
            except asyncio.TimeoutError:
                self.close()
                raise

    async def call(self, method, path, obj=None, body=None, headers=None, what=None):
        if obj is not None:
            body = json.dumps(obj).encode()
        h = dict(headers or {})
        if self.token and "Authorization" not in h:
            h["Authorization"] = "Bearer " + self.token
        S.requests += 1
        resp = await self.raw(build_request(method, path, self.port, body, h))
        if resp is None:
            raise Closed(f"{method} {path}: connection closed without an answer")
        status, _, data = resp
        if status >= 500:
            S.error(what or f"{method} {path}", status, data.decode("utf-8", "replace"))
        try:
            v = json.loads(data) if data else None
        except ValueError:
            v = data.decode("utf-8", "replace")
        return status, v


# --- a minimal WebSocket client (RFC 6455) -------------------------------------

class WsRefused(Exception):
    def __init__(self, status, body):
        super().__init__(f"upgrade refused: {status}")
        self.status = status
        self.body = body


class Ws:
    def __init__(self, r, w):
        self.r, self.w = r, w

    @classmethod
    async def connect(cls, port, path, token=None):
        r, w = await asyncio.open_connection(HOST, port)
        key = base64.b64encode(os.urandom(16)).decode()
        h = {
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": key,
            "Sec-WebSocket-Version": "13",
        }
        if token:
            h["Authorization"] = "Bearer " + token
        S.requests += 1
        S.sockets += 1
        w.write(build_request("GET", path, port, None, h))
        await w.drain()
        status, headers, _ = await asyncio.wait_for(read_response(r, head_only=True), 15)
        if status != 101:
            body = b""
            if "content-length" in headers:
                body = await r.readexactly(int(headers["content-length"]))
            w.transport.abort()
            if status >= 500:
                S.error(f"GET {path[:60]} (upgrade)", status, body.decode("utf-8", "replace"))
            raise WsRefused(status, body)
        return cls(r, w)

    def _frame(self, opcode, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return head + mask + masked

    async def send(self, opcode, payload):
        self.w.write(self._frame(opcode, payload))
        await self.w.drain()

    async def send_json(self, obj):
        await self.send(0x1, json.dumps(obj).encode())

    async def recv(self):
        """(opcode, payload) of the next frame; answers WebSocket pings."""
        while True:
            b1, b2 = await self.r.readexactly(2)
            opcode = b1 & 0x0F
            n = b2 & 0x7F
            if n == 126:
                n = struct.unpack("!H", await self.r.readexactly(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", await self.r.readexactly(8))[0]
            if b2 & 0x80:
                mask = await self.r.readexactly(4)
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(await self.r.readexactly(n)))
            else:
                data = await self.r.readexactly(n)
            if opcode == 0x9:
                await self.send(0xA, data)
                continue
            return opcode, data

    async def recv_json(self):
        while True:
            op, data = await self.recv()
            if op == 0x8:
                raise Closed("close frame")
            if op == 0x1:
                return json.loads(data)

    async def close(self, abrupt=False):
        try:
            if not abrupt:
                await self.send(0x8, struct.pack("!H", 1000))
        except (ConnectionError, RuntimeError):
            pass
        self.w.transport.abort()


# --- the server ------------------------------------------------------------------

class Server:
    def __init__(self, binary, db, logpath):
        self.binary, self.db, self.logpath = binary, db, logpath
        self.proc = None
        self.port = None
        self.died = None  # a sentence once it is seen dead while it should live

    def start(self):
        s = socket.socket()
        s.bind((HOST, 0))
        self.port = s.getsockname()[1]
        s.close()

        def limits():
            # A 4 GiB address-space cap: a runaway allocation kills the server
            # (a failure), not the machine.
            resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

        env = dict(os.environ, RUST_LOG=os.environ.get("RUST_LOG", "warn"), QIYUAN_AI_MOVE_MS="5")
        logf = open(self.logpath, "ab")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--database", f"sqlite://{self.db}",
             "--rate-limit", "0",
             # All the churn comes from one address: lift the per-address
             # socket cap (tests/it/hardening.rs checks the cap itself).
             "--sockets-per-ip", "0", "--sockets-per-user", "0", "--connections-per-ip", "0",
             # Short enough that slow clients and abandoned rooms are closed
             # within a run, and before the settle time is over.
             "--header-timeout-s", str(SLOW_TIMEOUT_S), "--body-timeout-s", str(SLOW_TIMEOUT_S),
             "--open-room-idle-s", str(ROOM_IDLE_S)],
            stdout=logf, stderr=subprocess.STDOUT, preexec_fn=limits, env=env)
        logf.close()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def fds(self):
        try:
            return len(os.listdir(f"/proc/{self.proc.pid}/fd"))
        except OSError:
            return None

    def rss(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            return None
        return None

    async def wait_up(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                return False
            try:
                r, w = await asyncio.open_connection(HOST, self.port)
                w.write(build_request("GET", "/healthz", self.port, close=True))
                await w.drain()
                status, _, _ = await asyncio.wait_for(read_response(r), 5)
                w.close()
                if status == 200:
                    return True
            except (OSError, Closed, asyncio.TimeoutError, asyncio.IncompleteReadError):
                pass
            await asyncio.sleep(0.1)
        return False

    def kill(self, sig=signal.SIGKILL):
        if self.alive():
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# --- the load ----------------------------------------------------------------------

class Soak:
    def __init__(self, server, args):
        self.srv = server
        self.args = args
        self.stop = asyncio.Event()
        self.acked = {}  # game id -> {ply index: move}
        self.game_ids = []
        self.event_ids = []
        self.rss_samples = []  # (t, bytes)
        self.peak = 0
        self.rng = random.Random(args.seed)
        self.room_tokens = []

    @property
    def port(self):
        return self.srv.port

    async def monitor(self, until):
        t0 = time.monotonic()
        while not until.is_set():
            if not self.srv.alive():
                if not self.srv.died:
                    self.srv.died = f"the server exited (status {self.srv.proc.returncode}) " \
                                    f"{time.monotonic() - t0:.1f} s into the run"
                    log("FAIL: " + self.srv.died)
                    self.stop.set()
                return
            r = self.srv.rss()
            if r:
                self.rss_samples.append((time.monotonic() - t0, r))
                self.peak = max(self.peak, r)
            try:
                await asyncio.wait_for(until.wait(), 0.25)
            except asyncio.TimeoutError:
                pass

    async def register(self, name):
        h = Http(self.port)
        st, v = await h.call("POST", "/api/register", {"username": name, "password": "soak-secret"})
        h.close()
        if st != 200:
            raise RuntimeError(f"register {name}: {st} {v}")
        return v["token"]

    # games

    async def pair(self, i, ta, tb):
        kinds = ["xiangqi", "xiangqi", "jifen-simple", "xiangqi", "banqi", "xiangqi"]
        ha, hb = Http(self.port, ta), Http(self.port, tb)
        try:
            while not self.stop.is_set():
                kind = kinds[i % len(kinds)]
                # A challenge: an open room is a seek another pair's
                # identical seek would take.
                st, v = await ha.call("POST", "/api/games", {"game": kind, "challenge": f"soak{i}b"})
                if st != 201:
                    S.failures.append(f"create {kind}: {st} {v}")
                    return
                gid = v["id"]
                st, v = await hb.call("POST", f"/api/games/{gid}/join")
                if st != 200:
                    S.failures.append(f"join {gid}: {st} {v}")
                    return
                self.acked[gid] = {}
                self.game_ids.append(gid)
                S.games += 1
                resign_at = self.rng.randint(30, 160)
                await asyncio.gather(
                    self.player(gid, ta, ha, resign_at),
                    self.player(gid, tb, hb, resign_at + 1))
        finally:
            ha.close()
            hb.close()

    async def player(self, gid, token, http, resign_at):
        try:
            ws = await Ws.connect(self.port, f"/api/games/{gid}/ws", token)
        except (WsRefused, OSError, Closed, asyncio.TimeoutError) as e:
            S.exc(e)
            return
        rng = self.rng
        pending = None  # (ply, move, sent_at)
        state = None
        try:
            while not self.stop.is_set():
                if rng.random() < 0.01:
                    # Drop the socket without a close frame and come back: the
                    # first state after it tells whether a pending move landed.
                    await ws.close(abrupt=True)
                    S.reconnects += 1
                    ws = await Ws.connect(self.port, f"/api/games/{gid}/ws", token)
                try:
                    f = await asyncio.wait_for(ws.recv_json(), 1.0)
                except asyncio.TimeoutError:
                    f = None
                if f is not None:
                    t = f.get("t")
                    if t == "ping":
                        await ws.send_json({"t": "pong", "id": f.get("id")})
                        continue
                    if t == "error":
                        if pending:
                            S.moves_refused += 1
                            pending = None
                        continue
                    if t in ("state", "diff"):
                        folded = fold(state, f)
                        if folded is None:
                            # Missed records: come back for the whole game.
                            await ws.close(abrupt=True)
                            ws = await Ws.connect(self.port, f"/api/games/{gid}/ws", token)
                            state = None
                            continue
                        state = folded
                        moves = state.get("moves") or []
                        if pending and len(moves) > pending[0] and moves[pending[0]] == pending[1]:
                            self.ack(gid, pending[0], pending[1])
                            pending = None
                if state is None or state.get("status") == "finished":
                    if state is not None:
                        return
                    continue
                if pending:
                    if time.monotonic() - pending[2] > 10:
                        S.moves_unanswered += 1
                        pending = None
                    continue
                legal = state.get("legal") or []
                if not legal or state.get("status") != "playing":
                    continue
                ply = len(state.get("moves") or [])
                if ply >= resign_at:
                    st, v = await http.call("POST", f"/api/games/{gid}/resign")
                    if st == 200:
                        return
                    continue
                await asyncio.sleep(rng.uniform(0.01, 0.08))
                mv = rng.choice(legal)
                if rng.random() < 0.3:
                    S.moves_http += 1
                    st, v = await http.call("POST", f"/api/games/{gid}/moves", {"move": mv})
                    if st == 200:
                        got = v.get("moves") or []
                        if len(got) > ply and got[ply] == mv:
                            self.ack(gid, ply, mv)
                        else:
                            S.failures.append(f"{gid}: 200 for {mv} at ply {ply} but moves {got[-3:]}")
                        state = dict(v, legal=[])  # wait for the next state frame
                    else:
                        S.moves_refused += 1
                        state = dict(state, legal=[])
                else:
                    S.moves_ws += 1
                    await ws.send_json({"t": "move", "move": mv})
                    pending = (ply, mv, time.monotonic())
                    state = dict(state, legal=[])
        except (Closed, ConnectionError, asyncio.IncompleteReadError, OSError) as e:
            if not self.stop.is_set():
                S.exc(e)
        finally:
            await ws.close()

    def ack(self, gid, ply, mv):
        prev = self.acked[gid].get(ply)
        if prev is not None and prev != mv:
            S.failures.append(f"{gid}: ply {ply} acknowledged as {prev} and as {mv}")
        self.acked[gid][ply] = mv
        S.moves_acked += 1

    # bad requests

    def bad_requests(self):
        p = self.port
        g = self.rng.choice(self.game_ids) if self.game_ids else "nope"
        junk = "".join(self.rng.choice("ab{}[]\":,0\\\x00é") for _ in range(self.rng.randint(1, 60)))
        big = b'{"game":"xiangqi","fen":"' + b"x" * self.rng.randint(17 * 1024, 40 * 1024) + b'"}'
        huge = "9" * self.rng.randint(20, 400)
        tok = {"Authorization": "Bearer " + self.token}
        reqs = [
            ("POST", "/api/games", junk.encode(), tok),
            ("POST", "/api/register", b'{"username": "x", "password": ', {}),
            ("POST", "/api/login", b"[1,2,3]", {}),
            ("POST", f"/api/games/{g}/moves", b'{"move": 12}', tok),
            ("POST", f"/api/games/{g}/moves", b'{"move": "' + b"z" * 500 + b'"}', tok),
            ("POST", "/api/games", big, tok),
            ("POST", "/api/events", big, tok),
            ("POST", f"/api/games/{g}/draw", big, tok),
            ("GET", f"/api/games/nope{self.rng.randint(0, 10**9)}", None, {}),
            ("GET", "/api/users/nobody-here", None, {}),
            ("GET", "/api/events/enope", None, {}),
            ("GET", "/api/team-events/tnope/standings", None, {}),
            ("POST", "/api/games/nope/join", None, tok),
            ("POST", "/api/games/nope/resign", b"{}", tok),
            ("DELETE", f"/api/games/{g}", None, tok),
            ("PUT", "/api/lobby", b"{}", {}),
            ("PATCH", "/api/register", b"{}", {}),
            ("GET", "/api/me", None, {"Authorization": "Bearer " + "z" * 300}),
            ("GET", "/api/me", None, {"Authorization": "Basic Zm9vOmJhcg=="}),
            ("GET", "/api/me", None, {"Cookie": "qy_session=;;;==; a"}),
            ("GET", "/api/me", None, {"X-Junk": "\x01\x7f" + "y" * 3000}),
            ("POST", "/api/games", ('{"game":"xiangqi","clock":{"initial_s":%s}}' % huge).encode(), tok),
            ("POST", "/api/games", b'{"game":"jifen-simple","target":1e999}', tok),
            ("GET", "/api/events/x/standings?stage=" + huge, None, {}),
            ("GET", "/api/ratings?game=xiangqi&players=" + ",".join(["ai:9"] * 300), None, {}),
            ("POST", "/api/guest", b'{"ignored": true}', {}),
            ("POST", "/api/logout", b"garbage", {}),
            ("GET", "/api/lobby", b'{"a body": "on a GET"}', {}),
            ("GET", "/healthz", b"x" * 1000, {}),
            ("POST", f"/api/games/{g}/claim", b"[]", tok),
            ("GET", "/api/games/" + "%FF%FE" * 3, None, {}),
            ("GET", "/static/../../etc/passwd", None, {}),
        ]
        return reqs

    async def bad_loop(self, raw_garbage):
        h = Http(self.port)
        rng = self.rng
        try:
            while not self.stop.is_set():
                if raw_garbage and rng.random() < 0.3:
                    data = rng.choice([
                        b"GARBAGE\r\n\r\n",
                        b"GET / HTTP/9.9\r\n\r\n",
                        b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
                        b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
                        b"GET /api/lobby HTTP/1.1\r\nNo colon here\r\n\r\n",
                        b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n" + b"X-Long: " + b"a" * 70000 + b"\r\n\r\n",
                        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(40),
                    ])
                    S.requests += 1
                    S.bad_requests += 1
                    try:
                        resp = await h.raw(data, timeout=10)
                        if resp and resp[0] >= 500:
                            S.error(f"raw {data[:30]!r}", resp[0], resp[2].decode("utf-8", "replace"))
                    except (OSError, asyncio.TimeoutError, ValueError, IndexError) as e:
                        S.exc(e)
                    h.close()
                    continue
                method, path, body, headers = rng.choice(self.bad_requests())
                S.bad_requests += 1
                try:
                    await h.call(method, path, body=body, headers=headers, what=f"bad {method} {path[:50]}")
                except (Closed, OSError, asyncio.TimeoutError, ValueError, IndexError) as e:
                    S.exc(e)
                    h.close()
                await asyncio.sleep(rng.uniform(0.001, 0.01))
        finally:
            h.close()

    # churn

    async def stream_once(self, path, read_line):
        r = w = None
        try:
            r, w = await asyncio.open_connection(HOST, self.port)
            S.requests += 1
            S.streams += 1
            S.sockets += 1
            w.write(build_request("GET", path, self.port))
            await w.drain()
            status, headers, _ = await asyncio.wait_for(read_response(r, head_only=True), 10)
            if status >= 500:
                S.error(f"GET {path[:60]}", status, "")
            if status == 200 and read_line:
                await asyncio.wait_for(r.readline(), 5)
        finally:
            if w:
                w.transport.abort()

    def unknown_id(self, prefix):
        rng = self.rng
        return prefix + "".join(rng.choice("abcdefghjk0123456789") for _ in range(rng.randint(2000, 16000)))

    async def unknown_stream(self, http, path):
        """A stream of an unknown id over a keep-alive connection: a 404."""
        S.streams += 1
        st, _ = await http.call("GET", path, what="GET stream of an unknown id")
        if st != 404:
            S.failures.append(f"GET {path[:40]}...: {st}, not 404")

    async def churn_loop(self):
        rng = self.rng
        http = Http(self.port)
        while not self.stop.is_set():
            action = rng.random()
            if self.args.no_unknown_streams and action < 0.45:
                action = 0.45 + action  # (the same mix without them)
            try:
                if action < 0.35:
                    await self.unknown_stream(http, f"/api/games/{self.unknown_id('u')}/stream")
                    continue
                if action < 0.45:
                    await self.unknown_stream(http, f"/api/events/{self.unknown_id('e')}/stream")
                    continue
                action = rng.random()
                if action < 0.25 and self.game_ids:
                    ws = await Ws.connect(self.port, f"/api/games/{rng.choice(self.game_ids)}/ws")
                    await asyncio.wait_for(ws.recv_json(), 5)
                    await ws.close(abrupt=rng.random() < 0.5)
                elif action < 0.40:
                    ws = await Ws.connect(self.port, "/api/lobby/ws")
                    await asyncio.wait_for(ws.recv_json(), 5)
                    await ws.close(abrupt=rng.random() < 0.5)
                elif action < 0.45:
                    # A burst of sockets held open together, then all dropped.
                    n = rng.randint(10, 40)
                    socks = []
                    for _ in range(n):
                        path = "/api/lobby/ws"
                        if self.game_ids and rng.random() < 0.6:
                            path = f"/api/games/{rng.choice(self.game_ids)}/ws"
                        socks.append(await Ws.connect(self.port, path))
                    await asyncio.sleep(0.3)
                    for ws in socks:
                        await ws.close(abrupt=True)
                elif action < 0.60 and not self.args.no_unknown_streams:
                    # A fresh connection for an unknown game's stream, dropped
                    # right after the answer's head.
                    await self.stream_once(f"/api/games/{self.unknown_id('u')}/stream", False)
                elif action < 0.90 and self.game_ids:
                    await self.stream_once(f"/api/games/{rng.choice(self.game_ids)}/stream", True)
                elif action < 0.94 and self.event_ids:
                    await self.stream_once(f"/api/events/{rng.choice(self.event_ids)}/stream", True)
                elif action < 0.97:
                    try:
                        await Ws.connect(self.port, f"/api/games/nope{rng.randint(0, 999)}/ws")
                    except WsRefused as e:
                        if e.status != 404:
                            S.failures.append(f"WebSocket to an unknown game: {e.status}")
                else:
                    # Half a handshake, then gone.
                    r, w = await asyncio.open_connection(HOST, self.port)
                    S.sockets += 1
                    w.write(b"GET /api/lobby/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")
                    await w.drain()
                    w.transport.abort()
            except (WsRefused, Closed, OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as e:
                if not self.stop.is_set():
                    S.exc(e)
                http.close()
            await asyncio.sleep(rng.uniform(0.001, 0.01))
        http.close()

    # slow clients

    async def slow_one(self, kind):
        """One slow connection of `kind`, held until the server closes it;
        a failure if it is still open well past the timeout."""
        r, w = await asyncio.open_connection(HOST, self.port)
        S.slow += 1
        try:
            if kind == "head":
                w.write(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 3000)
            elif kind == "body":
                w.write(b"POST /api/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 1000\r\n\r\n{\"username\": \"")
            else:
                w.write(build_request("GET", "/healthz", self.port))
            await w.drain()
            t0 = time.monotonic()
            limit = SLOW_TIMEOUT_S + 4
            try:
                # Whatever answer comes (a 408, the health check's), then EOF.
                while await asyncio.wait_for(r.read(65536), limit):
                    pass
            except asyncio.TimeoutError:
                S.failures.append(f"a slow connection ({kind}) was still open after {limit} s")
                return
            except ConnectionError:
                pass
            if time.monotonic() - t0 <= limit:
                S.slow_closed += 1
        finally:
            w.transport.abort()

    async def slow_loop(self):
        rng = self.rng
        while not self.stop.is_set():
            n = rng.randint(5, 30)
            kinds = [rng.choice(["head", "body", "idle"]) for _ in range(n)]
            results = await asyncio.gather(*(self.slow_one(k) for k in kinds), return_exceptions=True)
            for e in results:
                if isinstance(e, BaseException) and not self.stop.is_set():
                    S.exc(e)
            # A burst of streams of games in play, held open, then dropped.
            if self.game_ids:
                streams = []
                for _ in range(rng.randint(5, 20)):
                    try:
                        r, w = await asyncio.open_connection(HOST, self.port)
                        w.write(build_request("GET", f"/api/games/{rng.choice(self.game_ids)}/stream", self.port))
                        await w.drain()
                        streams.append(w)
                        S.streams += 1
                    except OSError as e:
                        S.exc(e)
                await asyncio.sleep(rng.uniform(0.1, 0.5))
                for w in streams:
                    w.transport.abort()

    # room churn

    async def room_loop(self, token):
        rng = self.rng
        h = Http(self.port, token)
        try:
            while not self.stop.is_set():
                # Rooms nobody here may take (the range leaves out every
                # player): they pile up until the per-user cap.
                st, v = await h.call("POST", "/api/games", {"game": "xiangqi",
                                     "rating_range": {"min": 3000, "max": 4000}})
                if st == 201:
                    S.rooms += 1
                elif st == 429 and isinstance(v, dict) and v.get("code") == "too_many_rooms":
                    S.rooms_capped += 1
                else:
                    S.failures.append(f"open a room: {st} {v}")
                    return
                await asyncio.sleep(rng.uniform(0.05, 0.3))
        finally:
            h.close()

    async def load(self, seconds, pairs, tokens):
        """Runs every kind of load for `seconds`, then stops it all."""
        self.stop = asyncio.Event()
        tasks = [asyncio.create_task(self.pair(i, *tokens[i])) for i in range(pairs)]
        tasks += [asyncio.create_task(self.bad_loop(raw_garbage=(i == 0))) for i in range(2)]
        tasks += [asyncio.create_task(self.churn_loop()) for _ in range(3)]
        tasks += [asyncio.create_task(self.slow_loop())]
        tasks += [asyncio.create_task(self.room_loop(t)) for t in self.room_tokens]
        try:
            await asyncio.wait_for(self.stop.wait(), seconds)
        except asyncio.TimeoutError:
            pass
        self.stop.set()
        done, pending = await asyncio.wait(tasks, timeout=20)
        for t in pending:
            t.cancel()
        for t in done:
            if t.exception() is not None:
                S.failures.append(f"a load task failed: {t.exception()!r}")

    async def check_moves(self, when):
        h = Http(self.port)
        lost = 0
        checked = 0
        try:
            for gid, acks in self.acked.items():
                st, v = await h.call("GET", f"/api/games/{gid}")
                if st != 200:
                    S.failures.append(f"{when}: GET /api/games/{gid}: {st} {v}")
                    lost += len(acks)
                    continue
                moves = v.get("moves") or []
                for ply in sorted(acks):
                    checked += 1
                    if ply >= len(moves) or moves[ply] != acks[ply]:
                        lost += 1
                        if lost <= 10:
                            S.failures.append(f"{when}: game {gid} lost acknowledged move {acks[ply]} "
                                              f"at ply {ply} (server has {len(moves)} moves)")
        finally:
            h.close()
        log(f"{when}: {checked} acknowledged moves in {len(self.acked)} games checked, {lost} missing")
        if lost:
            S.failures.append(f"{when}: {lost} acknowledged moves missing")


async def run(args):
    tmp = tempfile.mkdtemp(prefix="qiyuan-soak.")
    db = os.path.join(tmp, "soak.db")
    srv = Server(os.path.abspath(args.binary), db, os.path.join(tmp, "server.log"))
    soak = Soak(srv, args)
    ok = True
    try:
        srv.start()
        if not await srv.wait_up():
            log("FAIL: the server did not come up; log in " + srv.logpath)
            return 1
        log(f"server pid {srv.proc.pid} on {HOST}:{srv.port}, db {db}")

        pairs = args.games
        tokens = []
        for i in range(pairs):
            tokens.append((await soak.register(f"soak{i}a"), await soak.register(f"soak{i}b")))
        soak.token = tokens[0][0]
        soak.room_tokens = [await soak.register(f"soakroom{i}") for i in range(2)]
        h = Http(srv.port, soak.token)
        st, v = await h.call("POST", "/api/events", {"game": "xiangqi", "format": {"kind": "round_robin", "cycles": 1},
                                                     "players": ["soak0a", "soak0b"]})
        if st == 201:
            soak.event_ids.append(v["id"])
        h.close()

        mon_done = asyncio.Event()
        mon = asyncio.create_task(soak.monitor(mon_done))

        log(f"warm-up {args.warmup:g} s")
        await soak.load(args.warmup, pairs, tokens)
        await asyncio.sleep(2)
        baseline = srv.rss() or 0
        fds_baseline = srv.fds() or 0
        log(f"baseline RSS {baseline / MB:.1f} MB, {fds_baseline} open files; load for {args.seconds:g} s")
        await soak.load(args.seconds, pairs, tokens)
        log(f"load stopped; settling {args.settle:g} s")
        await asyncio.sleep(args.settle)
        end = srv.rss() or 0
        fds_end = srv.fds() or 0
        mon_done.set()
        await mon
        # Slow connections, streams and sockets are all gone by now: the
        # server holds as many descriptors as after the warm-up.
        log(f"open files: baseline {fds_baseline}, end {fds_end}")
        if srv.alive() and fds_end > fds_baseline + 16:
            S.failures.append(f"open files grew from {fds_baseline} to {fds_end} after the load stopped")
        if srv.alive():
            h = Http(srv.port)
            st, lobby = await h.call("GET", "/api/lobby")
            h.close()
            left = [g["id"] for g in (lobby or {}).get("open", [])
                    if any(s.get("name", "").startswith("soakroom") for s in g.get("seats", []))]
            if left:
                S.failures.append(f"{len(left)} abandoned rooms still open {args.settle:g} s after the load, "
                                  f"e.g. {left[:3]}")
            if S.rooms == 0 or S.slow_closed == 0:
                S.failures.append(f"no room churn or no slow client ran (rooms {S.rooms}, slow {S.slow_closed})")

        if srv.died or not srv.alive():
            S.failures.append(srv.died or "the server is not alive at the end")
        # The baseline is taken after a warm-up of the same load, so the
        # allocator's high-water marks are already in it: what grows past
        # 40 MB (or a fifth of the baseline, if more) after the load stops is
        # kept memory, not churn.
        limit = baseline + max(40 * MB, baseline * 0.2)
        quarter = [s for s in soak.rss_samples]
        if quarter:
            n = len(quarter)
            trail = ", ".join(f"{quarter[min(n - 1, n * k // 4)][1] / MB:.0f}" for k in range(1, 5))
            log(f"RSS during the run (MB, at 1/4 .. 4/4): {trail}")
        log(f"RSS baseline {baseline / MB:.1f} MB, peak {soak.peak / MB:.1f} MB, end {end / MB:.1f} MB, "
            f"limit {limit / MB:.1f} MB")
        if srv.alive() and end > limit:
            S.failures.append(f"RSS grew from {baseline / MB:.1f} MB to {end / MB:.1f} MB after the load "
                              f"stopped (limit {limit / MB:.1f} MB)")
        if S.server_errors:
            S.failures.append(f"{len(S.server_errors)} 5xx answers, e.g. {S.server_errors[:3]}")

        if srv.alive():
            await soak.check_moves("before restart")
            log("SIGKILL and restart on the same database")
            srv.kill(signal.SIGKILL)
            srv.died = None
            srv.start()
            if not await srv.wait_up():
                S.failures.append("the server did not come back after SIGKILL; log in " + srv.logpath)
            else:
                await soak.check_moves("after restart")
    finally:
        srv.kill(signal.SIGTERM)
        errs = ", ".join(f"{k} {v}" for k, v in sorted(S.client_errors.items())) or "none"
        print(f"soak summary: requests {S.requests}, bad requests {S.bad_requests}, "
              f"sockets opened {S.sockets} (streams {S.streams}), slow connections {S.slow} "
              f"(closed in time {S.slow_closed}), rooms left {S.rooms} (capped {S.rooms_capped}), games {S.games}, "
              f"moves acknowledged {S.moves_acked} (sent ws {S.moves_ws}, http {S.moves_http}, "
              f"refused {S.moves_refused}, unanswered {S.moves_unanswered}, player reconnects {S.reconnects}), 5xx {len(S.server_errors)}, "
              f"RSS baseline/peak/end MB "
              f"{(locals().get('baseline') or 0) / MB:.1f}/{soak.peak / MB:.1f}/{(locals().get('end') or 0) / MB:.1f}, "
              f"client-side errors: {errs}", flush=True)
        for f in S.failures:
            print("soak FAIL: " + f, flush=True)
        ok = not S.failures
        if ok and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"soak: logs and database kept in {tmp}", flush=True)
    print(f"soak: {1 if ok else 0} passed, {0 if ok else 1} failed", flush=True)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary", help="the qiyuan server binary")
    ap.add_argument("--seconds", type=float, default=60, help="length of the load (default 60)")
    ap.add_argument("--games", type=int, default=6, help="concurrent two-player games (default 6)")
    ap.add_argument("--warmup", type=float, default=5, help="warm-up load before the baseline (default 5 s)")
    ap.add_argument("--settle", type=float, default=5, help="quiet time before the end RSS (default 5 s)")
    ap.add_argument("--seed", type=int, default=1, help="random seed of the clients")
    ap.add_argument("--no-unknown-streams", action="store_true",
                    help="leave out streams of unknown ids (to tell their leak from others)")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir (log, database) even on success")
    args = ap.parse_args()
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        ap.error(f"{args.binary}: not an executable")
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
