#!/usr/bin/env python3
"""Fixed requests that once broke the hall, run after the fuzzer.

Usage: probes.py BASE_URL SCHEMA (a file path or the URL of the served document)

Schemathesis finds these only by luck (a product of two sizes, a JSON
array where an object belongs); here each is sent every run. Every answer
must be a 4xx whose body is JSON matching the document's Error schema (the
document says every error is), and the server must answer /healthz after
each probe. The probes that can kill the server come last.

Stdlib only, loopback only. Prints one line per probe, then a summary line.
"""

import http.client
import json
import sys
import urllib.request
from urllib.parse import urlsplit


def load_schema(loc):
    if loc.startswith("http://"):
        with urllib.request.urlopen(loc, timeout=10) as r:
            return json.load(r)
    with open(loc, encoding="utf-8") as f:
        return json.load(f)


def main():
    base, schema_loc = sys.argv[1], sys.argv[2]
    u = urlsplit(base)
    if u.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("probes: loopback only")
    spec = load_schema(schema_loc)
    err_schema = spec["components"]["schemas"]["Error"]
    required = err_schema.get("required", ["error"])

    def request(method, path, body=None, headers=None, timeout=20):
        c = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
        try:
            h = dict(headers or {})
            if body is not None and "Content-Type" not in h:
                h["Content-Type"] = "application/json"
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            return r.status, r.getheader("Content-Type") or "", r.read()
        finally:
            c.close()

    def alive():
        try:
            return request("GET", "/healthz", timeout=5)[0] == 200
        except OSError:
            return False

    # Accounts and ids to aim at.
    st, _, b = request("POST", "/api/register",
                       json.dumps({"username": "prober", "password": "probe-secret"}))
    if st != 200:
        st, _, b = request("POST", "/api/login",
                           json.dumps({"username": "prober", "password": "probe-secret"}))
    token = json.loads(b)["token"]
    auth = {"Authorization": "Bearer " + token}
    _, _, b = request("POST", "/api/games", json.dumps({"game": "xiangqi", "opponent": "ai:1"}), auth)
    game = json.loads(b)["id"]
    _, _, b = request("POST", "/api/events",
                      json.dumps({"game": "xiangqi", "format": {"kind": "round_robin", "cycles": 1}}), auth)
    event = json.loads(b)["id"]

    big = "x" * (20 * 1024)
    probes = [
        # (what, method, path, body, headers)
        ("unknown query parameter", "GET", "/api/ratings?game=xiangqi&bogus=1", None, {}),
        ("required query parameter missing", "GET", "/api/ratings", None, {}),
        ("stage out of u8 range", "GET", f"/api/events/{event}/standings?stage=256", None, {}),
        ("stage not a number", "GET", f"/api/events/{event}/standings.csv?stage=abc", None, {}),
        ("path not UTF-8", "GET", "/api/games/%FF", None, {}),
        ("draw body over 16 KiB", "POST", f"/api/games/{game}/draw", big, auth),
        ("method not allowed", "DELETE", f"/api/games/{game}", None, {}),
        ("WebSocket route without upgrade", "GET", f"/api/games/{game}/ws", None, {}),
        ("array for the register object", "POST", "/api/register", '["arrayname", "secret12"]', {}),
        ("array for the new-game object", "POST", "/api/games", '["xiangqi"]', auth),
        ("array for the move object", "POST", f"/api/games/{game}/moves", '["h2e2"]', auth),
        ("array for the draw object", "POST", f"/api/games/{game}/draw", "[]", auth),
        ("three-stage sizes overflow u32", "POST", "/api/events",
         json.dumps({"game": "xiangqi", "format": {"kind": "three_stage", "groups": 65536,
                                                    "advance_per_group": 65536, "final_bracket_size": 2}}), auth),
        ("three-stage sizes of 10^9 entrants", "POST", "/api/events",
         json.dumps({"game": "xiangqi", "format": {"kind": "three_stage", "groups": 1000000,
                                                    "advance_per_group": 1024, "final_bracket_size": 2}}), auth),
    ]

    failed = 0
    passed = 0
    for what, method, path, body, headers in probes:
        problems = []
        try:
            st, ctype, raw = request(method, path, body, headers)
        except OSError as e:
            st, ctype, raw = None, "", b""
            problems.append(f"no answer ({e.__class__.__name__}: {e})")
        if st is not None:
            if not 400 <= st < 500:
                problems.append(f"status {st}, not a 4xx")
            if not 400 <= st < 500:
                pass  # said above; a success has no error body to check
            elif not ctype.startswith("application/json"):
                problems.append(f"Content-Type {ctype or 'none'!r}, not JSON")
            else:
                try:
                    v = json.loads(raw)
                    missing = [k for k in required if not isinstance(v.get(k), str)]
                    if missing:
                        problems.append(f"error body lacks string field(s) {missing}")
                except (ValueError, AttributeError):
                    problems.append("body is not a JSON object")
        if not alive():
            problems.append("THE SERVER DIED")
        shown = raw[:120].decode("utf-8", "replace").replace("\n", " ")
        line = f"{method} {path[:70]} -> {st} {ctype.split(';')[0] or '-'} {shown!r}"
        if problems:
            failed += 1
            print(f"probe FAIL: {what}: {line}: {'; '.join(problems)}")
        else:
            passed += 1
            print(f"probe ok: {what}: {line}")
        if "THE SERVER DIED" in problems:
            failed += len(probes) - passed - failed
            print("probes: the server is dead, the remaining probes are not run")
            break
    print(f"probes: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
