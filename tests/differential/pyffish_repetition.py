#!/usr/bin/env python3
"""Compares our repetition rulings with Fairy-Stockfish's (pyffish) on the
Xiangqi cases of crates/qiyuan-xiangqi/tests/it/repetition_rules.rs.

Prints one line per case: our ruling, pyffish's, and whether they agree. It
is a report, not a test: where they differ, docs/repetition.md says why ours
follows the rules in shared/rules/xiangqi.md.
"""
import re
import sys

import pyffish as sf

CASES_FILE = "crates/qiyuan-xiangqi/tests/it/repetition_rules.rs"


def load_cases(path):
    """(name, fen, prefix, cycle, expectation, reason) of every Xiangqi case:
    the struct form of `cases()` and the `case(...)` form of `axf_cases()`."""
    text = open(path, encoding="utf-8").read()
    xq = text.split("fn jifen_cases")[0]
    expect = r'([A-Za-z]+)(?:\((\w+)\))?'
    struct = re.compile(
        r'name: "([^"]+)",\s*variant: x,\s*fen: "([^"]+)",\s*prefix: "([^"]*)",\s*cycle: "([^"]+)",\s*expect: '
        + expect
    )
    call = re.compile(r'case\(\s*"([^"]+)",\s*"([^"]+)",\s*"([^"]*)",\s*"([^"]+)",\s*' + expect)
    return [m.groups() for pat in (struct, call) for m in pat.finditer(xq)]


def to_sf(move):
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def ours(expect, reason):
    if expect == "Draw":
        return "draw"
    loser = "red" if expect == "RedLoses" else "black"
    return f"{loser} loses ({'perpetual check' if reason == 'CHECK' else 'perpetual chase'})"


def theirs(fen, moves):
    side_after = "w" if (fen.split()[1] == "w") == (len(moves) % 2 == 0) else "b"
    end, value = sf.is_optional_game_end("xiangqi", fen + " - - 0 1", moves)
    if not end:
        end, value = sf.is_immediate_game_end("xiangqi", fen + " - - 0 1", moves)
    if not end:
        return "no ruling"
    if value == 0:
        return "draw"
    to_move = "red" if side_after == "w" else "black"
    other = "black" if to_move == "red" else "red"
    return f"{to_move if value < 0 else other} loses"


def main():
    cases = load_cases(CASES_FILE)
    agree = 0
    for name, fen, prefix, cycle, expect, reason in cases:
        moves = [to_sf(m) for m in prefix.split()] + [to_sf(m) for m in cycle.split()] * 2
        a, b = ours(expect, reason), theirs(fen, moves)
        same = a.split(" (")[0] == b
        agree += same
        print(f"{'same' if same else 'DIFF'} | {name} | ours: {a} | pyffish: {b}")
    print(f"pyffish agrees on {agree} of {len(cases)} cases")


if __name__ == "__main__":
    sys.exit(main())
