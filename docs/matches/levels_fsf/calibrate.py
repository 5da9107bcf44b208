#!/usr/bin/env python3
"""Usage: calibrate.py LEVELS CHUNKS [FIRST_CHUNK] [LEVEL:START_ELO ...]
Each hall level (its own move time) against Fairy-Stockfish at 20000 nodes a move
with UCI_LimitStrength at UCI_Elo E; E moves towards an even score chunk by chunk."""
import math, os, subprocess, sys, re
# QY: the engine binary (qiyuan or qyengine); FSF: Fairy-Stockfish; OUT: where logs go.
E = os.environ.get("QY", "target/release/examples/qyengine")
F = os.environ.get("FSF", "fairy-stockfish")
OUT = os.environ.get("OUT", "docs/matches/levels_fsf")
levels = [int(x) for x in sys.argv[1].split(",")]
start = {1: 900, 2: 1100, 3: 1300, 4: 1600, 5: 1900, 6: 2100, 7: 2400, 8: 2700}
chunks = int(sys.argv[2]) if len(sys.argv) > 2 else 2
offset = int(sys.argv[3]) if len(sys.argv) > 3 else 0
for pair in sys.argv[4:]:
    k, v = pair.split(":")
    start[int(k)] = int(v)
per = 8
def elo(s):
    s = min(max(s, 0.03), 0.97)
    return -400 * math.log10(1 / s - 1)
for lv in levels:
    e = start[lv]
    ms = 100 + 200 * (lv - 1)
    for c in range(offset, offset + chunks):
        tag = f"L{lv}_e{e}_c{c}"
        out = subprocess.run([E, "match", "--engine1", f"{E} engine --option Level={lv}", "--go1", f"movetime {ms}",
            "--engine2", F, "--go2", "nodes 20000", "--option2", "UCI_LimitStrength=true", "--option2", f"UCI_Elo={e}",
            "--games", str(per), "--seed", str(100 + lv * 10 + c), "--pgn", f"{OUT}/{tag}.pgn"],
            capture_output=True, text=True)
        open(f"{OUT}/{tag}.txt", "w").write(out.stderr + out.stdout)
        m = re.search(r"wins (\d+) draws (\d+) losses (\d+)", out.stdout)
        w, d, l = map(int, m.groups())
        s = (w + d / 2) / (w + d + l)
        print(f"level {lv} movetime {ms} vs UCI_Elo {e}: +{w} ={d} -{l} score {s:.3f} -> {e + elo(s):.0f}", flush=True)
        e = int(min(max(e + max(min(elo(s), 400), -400), 500), 2850))
