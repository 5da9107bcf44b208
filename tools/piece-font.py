#!/usr/bin/env python3
"""Regenerates web/pieces.woff2: the few glyphs the boards draw (the pieces'
characters and the river's 楚河汉界), subset from Noto Serif CJK SC Bold
(SIL Open Font License 1.1; Debian package fonts-noto-cjk), so a visitor
without a CJK font still sees the pieces. The subset is renamed "Qiyuan
Pieces" (a Modified Version under the OFL); the licence is in
web/pieces.woff2.LICENSE.

    apt-get install -y fonts-noto-cjk && pip install fonttools brotli
    python3 tools/piece-font.py
"""
import os
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

SOURCE = '/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc'
FACE = 'Noto Serif CJK SC'
# Every character the boards draw as text: web/board.js and web/banqi.js.
GLYPHS = '帅仕相马车炮兵将士象卒楚河汉界'
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'web', 'pieces.woff2')


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    font = next(f for f in TTCollection(src).fonts if f['name'].getDebugName(1) == FACE)
    opts = subset.Options()
    opts.flavor = 'woff2'
    opts.layout_features = []
    opts.hinting = False
    opts.desubroutinize = True
    opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    s = subset.Subsetter(opts)
    s.populate(text=GLYPHS)
    s.subset(font)
    names = font['name']
    for rec in list(names.names):
        if rec.nameID in (1, 4, 16, 21):
            names.setName('Qiyuan Pieces', rec.nameID, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID in (3, 6, 20):
            names.setName('QiyuanPieces-Bold', rec.nameID, rec.platformID, rec.platEncID, rec.langID)
    font.flavor = 'woff2'
    font.save(OUT)
    print(f'{OUT}: {os.path.getsize(OUT)} bytes, {len(GLYPHS)} glyphs')


if __name__ == '__main__':
    main()
