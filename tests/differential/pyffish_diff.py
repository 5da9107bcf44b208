#!/usr/bin/env python3
"""Differential test of Xiangqi legal move generation: qiyuan against pyffish.

Positions come from random games played with pyffish (from the start position
and from random sparse set-ups), biased towards checks, pins, mates,
stalemates and flying-general lines, plus a few hand-made positions. For each
position the legal move set of `qiyuan moves --fen FEN` is compared with
`pyffish.legal_moves('xiangqi', FEN, [])` (converted to ICCS), and for a
sample of positions `qiyuan apply --fen FEN MOVE` is compared with
`pyffish.get_fen` after the same move (board and side to move) and with
whether pyffish thinks the game is then over.

Usage:
    python3 tests/differential/pyffish_diff.py --binary target/release/qiyuan \
        --positions 2000 [--seed N] [--apply 200] [--perft-check DEPTH] [--self-test]

Exit status 0 when everything agrees, 1 on any mismatch.

pyffish conventions: the variant is called 'xiangqi'; its FEN is the same as
ours ('w'/'b' for the side to move); its move text counts ranks from 1
(ICCS a0 is pyffish a1, ICCS h9 is pyffish h10).
"""

import argparse
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

try:
    import pyffish as sf
except ImportError:  # pragma: no cover
    sys.exit("pyffish is not installed: pip install pyffish")

VARIANT = "xiangqi"
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

# --------------------------------------------------------------------------
# Move text
# --------------------------------------------------------------------------

_SF_MOVE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")
_ICCS_MOVE = re.compile(r"^([a-i])([0-9])([a-i])([0-9])$")


def sf_to_iccs(m):
    g = _SF_MOVE.match(m)
    if not g:
        raise ValueError(f"unexpected pyffish move text {m!r}")
    return f"{g[1]}{int(g[2]) - 1}{g[3]}{int(g[4]) - 1}"


def iccs_to_sf(m):
    g = _ICCS_MOVE.match(m)
    if not g:
        raise ValueError(f"unexpected ICCS move text {m!r}")
    return f"{g[1]}{int(g[2]) + 1}{g[3]}{int(g[4]) + 1}"


# --------------------------------------------------------------------------
# A small board model, used only to classify positions and to bias the
# random games (never to decide what is legal).
# --------------------------------------------------------------------------

FILES = "abcdefghi"


def parse_board(fen):
    """FEN -> (dict {(file, rank): letter}, side 'w'/'b')."""
    fields = fen.split()
    board = {}
    rank = 9
    for row in fields[0].split("/"):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, rank)] = ch
                f += 1
        rank -= 1
    side = fields[1] if len(fields) > 1 else "w"
    return board, ("b" if side == "b" else "w")


def board_to_fen(board, side):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, rank))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + f" {side} - - 0 1"


def is_red(p):
    return p.isupper()


def king_square(board, red):
    k = "K" if red else "k"
    for sq, p in board.items():
        if p == k:
            return sq
    return None


def king_attacked(board, red):
    """Whether the general of `red` (True) / black (False) is attacked,
    counting the flying-general rule."""
    k = king_square(board, red)
    if k is None:
        return False
    kf, kr = k

    def enemy(p, letter):
        return p is not None and p.lower() == letter and is_red(p) != red

    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        f, r = kf + df, kr + dr
        seen = 0
        while 0 <= f < 9 and 0 <= r < 10:
            p = board.get((f, r))
            if p is not None:
                if seen == 0:
                    if enemy(p, "r") or (enemy(p, "k") and df == 0):
                        return True
                    seen = 1
                else:
                    if enemy(p, "c"):
                        return True
                    break
            f += df
            r += dr
    for dx, dy in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (-2, 1), (2, -1), (-2, -1)):
        hf, hr = kf + dx, kr + dy
        p = board.get((hf, hr))
        if enemy(p, "n"):
            # The horse moves from (hf, hr) by (-dx, -dy); its leg is the
            # orthogonal step along the longer axis.
            if abs(dx) == 2:
                leg = (hf - dx // 2, hr)
            else:
                leg = (hf, hr - dy // 2)
            if leg not in board:
                return True
    # Pawns: an enemy pawn in front (from its side), or beside once crossed.
    if red:
        if enemy(board.get((kf, kr + 1)), "p"):
            return True
        for df in (1, -1):
            if enemy(board.get((kf + df, kr)), "p") and kr <= 4:
                return True
    else:
        if enemy(board.get((kf, kr - 1)), "p"):
            return True
        for df in (1, -1):
            if enemy(board.get((kf + df, kr)), "p") and kr >= 5:
                return True
    return False


def flying_general_line(board):
    """Generals on the same file with exactly one piece between them."""
    rk, bk = king_square(board, True), king_square(board, False)
    if rk is None or bk is None or rk[0] != bk[0]:
        return False
    between = sum(1 for r in range(rk[1] + 1, bk[1]) if (rk[0], r) in board)
    return between == 1


def has_pin(board, red):
    """Whether some piece of the side is pinned: removing it from the board
    would leave its own general attacked (chariot/cannon lines, cannon
    screens, horse legs and the flying-general line all count)."""
    if king_attacked(board, red):
        return False
    for sq, p in list(board.items()):
        if is_red(p) != red or p.lower() == "k":
            continue
        del board[sq]
        exposed = king_attacked(board, red)
        board[sq] = p
        if exposed:
            return True
    return False


def apply_move(board, iccs):
    b = dict(board)
    fr = (FILES.index(iccs[0]), int(iccs[1]))
    to = (FILES.index(iccs[2]), int(iccs[3]))
    b[to] = b.pop(fr)
    return b


# --------------------------------------------------------------------------
# Position generation
# --------------------------------------------------------------------------

# (FEN, label) made by hand; each label is checked against pyffish.
HAND_MADE = [
    # Stalemate: the e8 chariot covers d8 and e9; the d9 general is not attacked.
    ("3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1", "stalemate"),
    # Stalemate by the flying-general rule: e9 faces the red general, the c8 pawn covers d8.
    ("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1", "stalemate"),
    # Red stalemated: e0 faces the black general, the c1 pawn covers d1.
    ("4k4/9/9/9/9/9/9/9/2p6/3K5 w - - 0 1", "stalemate"),
    # In check from a chariot, the general hemmed in by its own advisors and elephant.
    ("3akab2/9/4R4/9/9/9/9/9/9/3K5 b - - 0 1", "any"),
    # Checkmate: a9 chariot checks along rank 9, b8 covers rank 8.
    ("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1", "checkmate"),
    # Checkmate with the flying general: d8 chariot protected by the e8 pawn
    # and by the d0 general (taking it would face the generals).
    ("3k5/3RP4/9/9/9/9/9/9/9/3K5 b - - 0 1", "checkmate"),
    # Double cannon mate (重炮): e7 cannon checks over the e8 cannon screen.
    ("3aka3/4C4/4C4/9/9/9/9/9/9/3K5 b - - 0 1", "any"),
    # Horse-leg checks and pins.
    ("3k5/9/4N4/9/9/9/9/9/9/4K4 b - - 0 1", "any"),
    ("4k4/4a4/4N4/9/9/9/9/9/9/3K5 b - - 0 1", "any"),
    # Cannon pins: two pieces between the e5 cannon and the general; each is
    # pinned (taking one away makes the other a screen).
    ("4k4/4a4/4b4/9/4C4/9/9/9/9/3K5 b - - 0 1", "any"),
    # Flying-general pins: the only piece between the generals may not leave the file.
    ("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1", "any"),
    ("4k4/9/9/4n4/9/9/9/9/9/4K4 b - - 0 1", "any"),
    ("3k5/9/9/3c5/9/9/9/9/9/3K5 b - - 0 1", "any"),
    ("5k3/9/9/9/9/5p3/9/9/9/5K3 b - - 0 1", "any"),
    # Generals on the same file: a pawn between them.
    ("4k4/9/9/9/4P4/9/9/9/9/4K4 b - - 0 1", "any"),
    # In check from a cannon with a screen that may move off the line.
    ("4k4/9/9/9/9/4p4/9/4C4/9/3K5 b - - 0 1", "any"),
]

ADVISOR_SQ = {True: [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)],
              False: [(3, 9), (5, 9), (4, 8), (3, 7), (5, 7)]}
ELEPHANT_SQ = {True: [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)],
               False: [(2, 9), (6, 9), (0, 7), (4, 7), (8, 7), (2, 5), (6, 5)]}
PALACE = {True: [(f, r) for f in (3, 4, 5) for r in (0, 1, 2)],
          False: [(f, r) for f in (3, 4, 5) for r in (7, 8, 9)]}


def pawn_squares(red):
    out = []
    for f in range(9):
        for r in range(10):
            if red:
                ok = r >= 5 or (r in (3, 4) and f % 2 == 0)
            else:
                ok = r <= 4 or (r in (5, 6) and f % 2 == 0)
            if ok:
                out.append((f, r))
    return out


PAWN_SQ = {True: pawn_squares(True), False: pawn_squares(False)}
ALL_SQ = [(f, r) for f in range(9) for r in range(10)]


def random_setup(rng, weak_max=2):
    """A random sparse legal set-up. One side (the strong one) usually has
    more attackers; the weak side gets at most `weak_max` of each kind.
    Returns (FEN, strong side 'w'/'b')."""
    for _ in range(1000):
        board = {}
        board[rng.choice(PALACE[True])] = "K"
        k = rng.choice(PALACE[False])
        if k in board:
            continue
        board[k] = "k"
        strong = rng.random() < 0.5
        for red in (True, False):
            scale = 1.0 if red == strong else 0.4
            cap = 2 if red == strong else weak_max

            def put(letter, squares, count):
                for _ in range(min(count, cap)):
                    free = [s for s in squares if s not in board]
                    if free:
                        board[rng.choice(free)] = letter if red else letter.lower()

            put("A", ADVISOR_SQ[red], rng.randint(0, 2))
            put("B", ELEPHANT_SQ[red], rng.randint(0, 2))
            put("R", ALL_SQ, int(rng.randint(0, 2) * scale + rng.random() * scale))
            put("N", ALL_SQ, int(rng.randint(0, 2) * scale + rng.random() * scale))
            put("C", ALL_SQ, int(rng.randint(0, 2) * scale + rng.random() * scale))
            put("P", PAWN_SQ[red], int(rng.randint(0, 3) * scale))
        side = rng.choice("wb")
        # The side not to move must not be in check (that includes facing generals).
        if king_attacked(board, side == "b"):
            continue
        fen = board_to_fen(board, side)
        if sf.validate_fen(fen, VARIANT) != 1:
            continue
        return fen, ("w" if strong else "b")
    raise RuntimeError("could not make a random set-up")


def classify(fen, legal, in_check):
    board, side = parse_board(fen)
    red = side == "w"
    cats = set()
    if in_check:
        cats.add("in_check")
    if not legal:
        cats.add("checkmate" if in_check else "stalemate")
    if flying_general_line(board):
        cats.add("flying_general")
    if has_pin(board, red):
        cats.add("pinned")
    return cats


def choose_move(rng, board, side, legal_iccs):
    """Random move, biased towards captures, checks and flying-general lines."""
    red = side == "w"
    weights = []
    for m in legal_iccs:
        to = (FILES.index(m[2]), int(m[3]))
        w = 1.0
        if to in board:
            w += 2.0
        after = apply_move(board, m)
        if king_attacked(after, not red):
            w += 4.0
        if flying_general_line(after):
            w += 1.0
        weights.append(w)
    return rng.choices(legal_iccs, weights=weights)[0]


def squeeze_move(rng, fen, legal_sf):
    """The move that leaves the opponent the fewest replies (mate or
    stalemate when there is one), ties broken at random."""
    best, best_n = [], None
    for m in legal_sf:
        n = len(sf.legal_moves(VARIANT, fen, [m]))
        if best_n is None or n < best_n:
            best, best_n = [m], n
        elif n == best_n:
            best.append(m)
    return rng.choice(best)


def generate(n, rng):
    """Returns a list of dicts: fen, legal (pyffish, ICCS), cats, source."""
    out = []
    seen = set()

    def add(fen, legal_sf, source, force=False):
        key = " ".join(fen.split()[:2])
        if key in seen:
            return None
        legal = sorted(sf_to_iccs(m) for m in legal_sf)
        in_check = sf.gives_check(VARIANT, fen, [])
        cats = classify(fen, legal, in_check)
        keep = 0.25
        if "in_check" in cats or not legal:
            keep = 1.0
        elif cats:
            keep = 0.5
        if not force and rng.random() >= keep:
            return None
        seen.add(key)
        item = {"fen": fen, "legal": legal, "cats": cats, "source": source}
        out.append(item)
        return item

    for fen, label in HAND_MADE:
        item = add(fen, sf.legal_moves(VARIANT, fen, []), "hand", force=True)
        if item and label != "any":
            got = "checkmate" if "checkmate" in item["cats"] else (
                "stalemate" if "stalemate" in item["cats"] else "neither")
            if got != label:
                print(f"warning: hand-made {fen!r} labelled {label}, pyffish says {got}")

    game = 0
    while len(out) < n:
        game += 1
        kind = game % 10
        strong = None
        if kind < 3:
            # A game from the start position.
            fen, plies, source = START_FEN, rng.randint(30, 200), "game"
        elif kind < 6:
            # A game from a random sparse set-up.
            fen, _ = random_setup(rng)
            plies, source = rng.randint(5, 60), "setup"
        else:
            # The strong side squeezes a weak one: mates and stalemates.
            fen, strong = random_setup(rng, weak_max=rng.randint(0, 1))
            plies, source = rng.randint(6, 24), "squeeze"
        for _ in range(plies):
            legal_sf = sf.legal_moves(VARIANT, fen, [])
            add(fen, legal_sf, source)
            if not legal_sf or len(out) >= n:
                break
            board, side = parse_board(fen)
            if side == strong and len(legal_sf) <= 40:
                m = sf_to_iccs(squeeze_move(rng, fen, legal_sf))
            else:
                m = choose_move(rng, board, side, [sf_to_iccs(x) for x in legal_sf])
            fen = sf.get_fen(VARIANT, fen, [iccs_to_sf(m)])
    return out[:n]


# --------------------------------------------------------------------------
# Driving the binary
# --------------------------------------------------------------------------


def run_binary(binary, args):
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def our_moves(binary, fen):
    rc, out, err = run_binary(binary, ["moves", "--fen", fen])
    if rc != 0:
        return None, err.strip()
    return sorted(line.strip() for line in out.splitlines() if line.strip()), None


def compare_moves(binary, items, jobs, mutate=None):
    def one(i_item):
        i, item = i_item
        ours, err = our_moves(binary, item["fen"])
        if mutate and ours is not None:
            ours = mutate(i, ours)
        if ours is None:
            return i, f"binary rejected the FEN: {err}"
        theirs = item["legal"]
        if ours == theirs:
            return i, None
        missing = sorted(set(theirs) - set(ours))
        extra = sorted(set(ours) - set(theirs))
        dup = len(ours) != len(set(ours))
        msg = f"missing {missing} extra {extra}"
        if dup:
            msg += " (duplicates in our list)"
        return i, msg

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(one, enumerate(items)))


def compare_apply(binary, items, count, rng, mutate=None):
    """Play one random legal move with both and compare board + side."""
    candidates = [it for it in items if it["legal"]]
    sample = rng.sample(candidates, min(count, len(candidates)))
    results = []
    counters_differ = 0
    for k, it in enumerate(sample):
        fen = it["fen"]
        mv = rng.choice(it["legal"])
        want = sf.get_fen(VARIANT, fen, [iccs_to_sf(mv)])
        want_over = not sf.legal_moves(VARIANT, want, [])
        rc, out, err = run_binary(binary, ["apply", "--fen", fen, mv])
        got = None
        over = False
        for line in out.splitlines():
            if line.startswith("fen "):
                got = line[4:].strip()
            elif line.startswith("result "):
                over = True
        if mutate and got:
            got = mutate(k, got)
        if rc != 0 or got is None:
            results.append((fen, mv, f"apply failed (rc {rc}): {err.strip()}"))
            continue
        if got.split()[:2] != want.split()[:2]:
            results.append((fen, mv, f"got {got!r}, pyffish {want!r}"))
            continue
        if over != want_over:
            results.append((fen, mv, f"game over: ours {over}, pyffish {want_over}"))
            continue
        if got.split()[2:] != want.split()[2:]:
            counters_differ += 1
        results.append((fen, mv, None))
    return results, counters_differ


# --------------------------------------------------------------------------
# Shallow perft cross-check of the published positions (see
# crates/qiyuan-xiangqi/tests/it/perft_suite.rs for their sources).
# --------------------------------------------------------------------------

PUBLISHED = [
    (START_FEN, [44, 1920, 79666]),
    ("1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1", []),
    ("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", []),
    ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", [38, 1128, 43929]),
    ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", [7, 281, 8620]),
    ("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", [25, 424, 9850]),
    ("CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", [28, 516, 14808]),
    ("R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1", [21, 364, 7626]),
    ("C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1", [28, 222, 6241]),
    ("4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1", [23, 345, 8124]),
    ("2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1", [21, 195, 3883]),
    ("1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1", [30, 830, 22787]),
    ("CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1", [19, 583, 11714]),
    ("r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1", [58, 1651, 90744]),
]


def sf_perft(fen, depth, moves=()):
    legal = sf.legal_moves(VARIANT, fen, list(moves))
    if depth == 1:
        return len(legal)
    return sum(sf_perft(fen, depth - 1, (*moves, m)) for m in legal)


def perft_check(binary, depth):
    bad = 0
    for fen, published in PUBLISHED:
        for d in range(1, depth + 1):
            theirs = sf_perft(fen, d)
            rc, out, err = run_binary(binary, ["perft", "--fen", fen, str(d)])
            ours = next((int(line.split()[1]) for line in out.splitlines()
                         if line.startswith("nodes ")), None)
            pub = published[d - 1] if d <= len(published) else None
            ok = ours == theirs and (pub is None or pub == theirs)
            bad += not ok
            print(f"perft {'ok ' if ok else 'BAD'} d{d} pyffish {theirs} ours {ours} "
                  f"published {pub if pub is not None else '-'}  {fen}")
    print(f"perft-check: {'all agree' if not bad else f'{bad} disagreements'}")
    return bad == 0


# --------------------------------------------------------------------------


def report(items, move_results, apply_results, counters_differ, show):
    failed = [(items[i], msg) for i, msg in move_results if msg]
    passed = len(move_results) - len(failed)
    print(f"differential: {passed} passed, {len(failed)} failed")
    cats = {c: 0 for c in ("in_check", "checkmate", "stalemate", "flying_general", "pinned")}
    for it in items:
        for c in it["cats"]:
            cats[c] += 1
    sources = {}
    for it in items:
        sources[it["source"]] = sources.get(it["source"], 0) + 1
    print(f"categories: in check {cats['in_check']}, stalemate/mate "
          f"{cats['stalemate'] + cats['checkmate']} (stalemate {cats['stalemate']}, "
          f"checkmate {cats['checkmate']}), flying-general {cats['flying_general']}, "
          f"pinned {cats['pinned']}; sources "
          + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())))
    for it, msg in failed[:show]:
        print(f"  MISMATCH {it['fen']}\n    {msg}")
    a_failed = [(f, m, msg) for f, m, msg in apply_results if msg]
    print(f"apply: {len(apply_results) - len(a_failed)} passed, {len(a_failed)} failed"
          + (f" (counters differ in {counters_differ}, not judged)" if counters_differ else ""))
    for fen, mv, msg in a_failed[:show]:
        print(f"  APPLY MISMATCH {fen} {mv}\n    {msg}")
    return not failed and not a_failed


def self_test(binary, items, rng, jobs):
    """Feeds the comparison wrong answers and checks that it notices."""

    def drop_and_add(i, moves):
        if i == 0 and moves:
            return moves[1:]
        if i == 1:
            return sorted(moves + ["a0a9"])
        return moves

    def swap_side(k, fen):
        if k == 0:
            f = fen.split()
            f[1] = "b" if f[1] == "w" else "w"
            return " ".join(f)
        return fen

    sub = [it for it in items if it["legal"]][:20]
    mres = compare_moves(binary, sub, jobs, mutate=drop_and_add)
    ares, _ = compare_apply(binary, sub, 5, rng, mutate=swap_side)
    bad_m = [i for i, msg in mres if msg]
    bad_a = [x for x in ares if x[2]]
    ok = bad_m == [0, 1] and len(bad_a) == 1
    print(f"self-test: injected 2 move-list faults and 1 FEN fault, detected "
          f"{len(bad_m)} and {len(bad_a)}: {'ok' if ok else 'FAILED'}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/qiyuan")
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--apply", type=int, default=200, help="positions for the apply check")
    ap.add_argument("--jobs", type=int, default=2, help="binary processes at once")
    ap.add_argument("--show", type=int, default=5, help="mismatches to print")
    ap.add_argument("--perft-check", type=int, default=0, metavar="DEPTH",
                    help="also perft the published positions to DEPTH with pyffish")
    ap.add_argument("--self-test", action="store_true",
                    help="check that injected faults are detected, then stop")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    ok = True
    if args.perft_check:
        ok &= perft_check(args.binary, args.perft_check)
    items = generate(args.positions, rng)
    if args.self_test:
        sys.exit(0 if self_test(args.binary, items, rng, args.jobs) else 1)
    move_results = compare_moves(args.binary, items, args.jobs)
    apply_results, counters_differ = compare_apply(args.binary, items, args.apply, rng)
    ok &= report(items, move_results, apply_results, counters_differ, args.show)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
