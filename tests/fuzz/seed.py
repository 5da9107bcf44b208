#!/usr/bin/env python3
"""Seeds a freshly started hall with accounts, games and events for the API
fuzzer, and writes the schemathesis config that feeds their ids to it.

Usage: seed.py BASE_URL TEMPLATE_TOML OUT_TOML OUT_ENV

Without real ids every `{id}` operation would only ever see 404s; with them
(bound through schemathesis dictionaries with a probability below 1, so
random ids are still tried) the fuzzer reaches the handlers' real logic:
moves, draws, resignations, joins, standings.

OUT_TOML.guest is the same config with the guest's token. OUT_ENV gets
shell assignments: TOKEN_USER, TOKEN_GUEST.
Loopback only, stdlib only.
"""

import json
import sys
import urllib.error
import urllib.request
from urllib.parse import urlsplit


def req(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    r = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        r.add_header("Content-Type", "application/json")
    if token:
        r.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(r, timeout=30) as resp:
            raw = resp.read()
            status = resp.status
    except urllib.error.HTTPError as e:
        raw = e.read()
        status = e.code
    try:
        v = json.loads(raw)
    except ValueError:
        v = raw.decode("utf-8", "replace")
    return status, v


def must(expect, got, what):
    status, v = got
    if status != expect:
        sys.exit(f"seed: {what}: expected {expect}, got {status}: {v}")
    return v


def toml_list(values):
    return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in values) + "]"


def main():
    base, template, out_toml, out_env = sys.argv[1:5]
    host = urlsplit(base).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("seed: loopback only")

    a = must(200, req(base, "POST", "/api/register",
                      {"username": "fuzzer", "password": "fuzz-secret-1"}), "register fuzzer")
    b = must(200, req(base, "POST", "/api/register",
                      {"username": "fuzzer2", "password": "fuzz-secret-2"}), "register fuzzer2")
    c = must(200, req(base, "POST", "/api/register",
                      {"username": "fuzzer3", "password": "fuzz-secret-3"}), "register fuzzer3")
    g = must(200, req(base, "POST", "/api/guest"), "guest")
    spare = must(200, req(base, "POST", "/api/guest"), "spare guest")
    ta, tb, tg = a["token"], b["token"], g["token"]

    games = []
    # Waiting for an opponent (the fuzzer's own room: join answers 409).
    # (Its own clock: an open room is a seek, and an identical one by fuzzer2
    # would take its seat instead of opening a room.)
    games.append(must(201, req(base, "POST", "/api/games",
                            {"game": "xiangqi", "clock": {"initial_s": 600, "increment_s": 1}}, ta),
                      "open game")["id"])
    # A room the fuzzer may join (fuzzer2's).
    games.append(must(201, req(base, "POST", "/api/games", {"game": "xiangqi", "seat": "black"}, tb), "open game 2")["id"])
    # In play between two people, the fuzzer to move (red).
    # (Challenges to fuzzer2: an open room would be a seek, which another
    # open room of the same settings would take.)
    gid = must(201, req(base, "POST", "/api/games", {"game": "xiangqi", "rated": True, "challenge": "fuzzer2"},
                        ta), "rated game")["id"]
    must(200, req(base, "POST", f"/api/games/{gid}/join", None, tb), "join")
    games.append(gid)
    # In play against the AI, Jifen and Banqi rooms.
    games.append(must(201, req(base, "POST", "/api/games", {"game": "xiangqi", "opponent": "ai:1"}, ta), "ai game")["id"])
    games.append(must(201, req(base, "POST", "/api/games",
                            {"game": "jifen-simple", "target": 10, "opponent": "ai:2"}, ta), "jifen game")["id"])
    gid = must(201, req(base, "POST", "/api/games", {"game": "banqi", "base": 2, "challenge": "fuzzer2"}, ta), "banqi game")["id"]
    must(200, req(base, "POST", f"/api/games/{gid}/join", None, tb), "join banqi")
    games.append(gid)
    # Finished (a rematch may be offered).
    gid = must(201, req(base, "POST", "/api/games", {"game": "xiangqi", "challenge": "fuzzer2"}, ta),
               "game to resign")["id"]
    must(200, req(base, "POST", f"/api/games/{gid}/join", None, tb), "join")
    must(200, req(base, "POST", f"/api/games/{gid}/moves", {"move": "h2e2"}, ta), "first move")
    must(200, req(base, "POST", f"/api/games/{gid}/resign", None, tb), "resign")
    games.append(gid)

    events = []
    # Entries open, organised by the fuzzer (start is allowed); fuzzer2 is
    # invited and accepts. (One unfinished AI event per organiser: the AI
    # events below belong to fuzzer2, the fuzzer and fuzzer3.)
    eid = must(201, req(base, "POST", "/api/events",
                        {"name": "open", "game": "xiangqi",
                         "format": {"kind": "round_robin", "cycles": 1},
                         "players": ["fuzzer", "fuzzer2"]}, ta), "open event")["id"]
    must(200, req(base, "POST", f"/api/events/{eid}/join", None, tb), "accept invitation")
    events.append(eid)
    # Entries open, someone else's (start answers 403).
    events.append(must(201, req(base, "POST", "/api/events",
                                {"game": "xiangqi", "format": {"kind": "swiss", "rounds": 2},
                                 "players": ["ai:1", "ai:2"]}, tb), "other event")["id"])
    # Running: AI against AI, so it plays out by itself.
    events.append(must(201, req(base, "POST", "/api/events",
                                {"game": "xiangqi", "format": {"kind": "knockout", "seeding": "seeded"},
                                 "players": ["ai:1", "ai:2", "ai:3", "ai:4"], "start": True}, ta),
                       "running event")["id"])
    team = must(201, req(base, "POST", "/api/team-events",
                         {"name": "teams", "game": "xiangqi",
                          "teams": [{"name": "A", "players": ["ai:1"]},
                                    {"name": "B", "players": ["ai:2"]}]}, c["token"]), "team event")["id"]

    # Ids for the `{id}` of both kinds of event (team event ids work there too).
    event_ids = events + [team]
    users = ["fuzzer", "fuzzer2", g["username"]]
    moves = ["h2e2", "b0c2", "h0g2", "c3c4", "b2e2", "a0a1", "0000", "e3e4", "a3a4", "h7e7"]

    with open(template, encoding="utf-8") as f:
        text = f.read()
    text = text.replace("@TOKEN_USER@", ta).replace("@TOKEN_SPARE@", spare["token"])
    for key, values in {
        "@GAME_IDS@": games,
        "@EVENT_IDS@": event_ids,
        "@TEAM_EVENT_IDS@": [team],
        "@USER_NAMES@": users,
        "@MOVES@": moves,
    }.items():
        text = text.replace(key, toml_list(values))
    with open(out_toml, "w", encoding="utf-8") as f:
        f.write(text)
    # The same for a guest session (guests may not play or organise rated).
    with open(out_toml + ".guest", "w", encoding="utf-8") as f:
        f.write(text.replace(ta, tg))
    with open(out_env, "w", encoding="utf-8") as f:
        f.write(f"TOKEN_USER={ta}\nTOKEN_GUEST={tg}\n")
    print(f"seeded: {len(games)} games, {len(event_ids)} events, users {users}")


if __name__ == "__main__":
    main()
