#!/usr/bin/env python3
"""Regenerates web/pieces.woff2 ("Qiyuan Pieces"): every CJK character the
page draws whatever the visitor's language and fonts, subset from Noto Serif
CJK SC Bold (SIL Open Font License 1.1; Debian package fonts-noto-cjk), so a
visitor without a CJK font still sees the pieces, the board labels, the brand
棋苑 and the 中文 button instead of empty boxes. The subset is renamed "Qiyuan
Pieces" (a Modified Version under the OFL); the licence is in
web/pieces.woff2.LICENSE.

The characters come from the page's own sources, so the font cannot fall
behind them:
  - string literals (not comments) of web/games/*.js: piece tables, river,
    board labels; and the Chinese of the catalogue keys they write into a
    board's text (t('key') where a textContent is set);
  - string literals of the shared modules web/*.js: the brand and the language
    button;
  - the header of web/index.html, and the Chinese of every catalogue key the
    header shows (its data-i18n keys and HEADER_KEYS below);
  - EXTRA: the Chinese numerals of Xiangqi files and the Jifen class words,
    which boards and notations write.

    apt-get install -y fonts-noto-cjk && pip install fonttools brotli
    python3 tools/piece-font.py           # writes web/pieces.woff2
    python3 tools/piece-font.py --list    # prints the characters, by source
    python3 tools/piece-font.py --check   # exits 1 if the shipped font lacks one
                                          # (and, where the source font is, remakes it to be sure it can)
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
WEB = os.path.join(ROOT, 'web')
OUT = os.path.join(WEB, 'pieces.woff2')
SOURCE = '/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc'
FACE = 'Noto Serif CJK SC'
# Catalogue keys the header shows besides its data-i18n ones (set by app.js
# and theme.js): the login link and the theme button.
HEADER_KEYS = ['login', 'logout', 'theme_dark', 'theme_light']
# Xiangqi files in Chinese notation and on a Chinese board (red 一…九, black
# １…９: 炮二平五, 马８进７), and the Jifen class words (J22: 普 小 王 闲).
EXTRA = '一二三四五六七八九十１２３４５６７８９普通小王闲'

# CJK ideographs, CJK punctuation (the ideographic space of the river) and
# full-width forms (black's file numbers １…９ in Chinese notation).
CJK = re.compile('[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e]')


def literals(src):
    """The contents of the string and template literals of JavaScript `src`
    (comments dropped; `${…}` inside templates read as code again)."""
    out = []
    i, n = 0, len(src)
    stack = []  # template nesting: brace depth of each open `${`
    prev = ''  # last significant code character, to tell a regex from a division
    while i < n:
        c = src[i]
        if c == '/' and src.startswith('//', i):
            j = src.find('\n', i)
            i = n if j < 0 else j
            continue
        if c == '/' and src.startswith('/*', i):
            j = src.find('*/', i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == '/' and (prev == '' or prev in '(,=:[!&|?{};+-*%<>~^'):
            # A regex literal: skip it (classes may hold a slash).
            j, cls = i + 1, False
            while j < n and src[j] != '\n':
                if src[j] == '\\':
                    j += 2
                    continue
                if src[j] == '[':
                    cls = True
                elif src[j] == ']':
                    cls = False
                elif src[j] == '/' and not cls:
                    break
                j += 1
            i, prev = j + 1, 'x'
            continue
        if c in '\'"':
            j, buf = i + 1, []
            while j < n and src[j] != c and src[j] != '\n':
                if src[j] == '\\':
                    buf.append(src[j:j + 2])
                    j += 2
                    continue
                buf.append(src[j])
                j += 1
            out.append(''.join(buf))
            i, prev = j + 1, 'x'
            continue
        if c == '`' or (c == '}' and stack and stack[-1] == 0):
            if c == '}':
                stack.pop()
            j, buf = i + 1, []
            while j < n and src[j] != '`':
                if src[j] == '\\':
                    buf.append(src[j:j + 2])
                    j += 2
                    continue
                if src.startswith('${', j):
                    stack.append(0)
                    j += 1
                    break
                buf.append(src[j])
                j += 1
            out.append(''.join(buf))
            i, prev = j + 1, 'x' if j >= n or src[j] == '`' else '{'
            continue
        if c == '{' and stack:
            stack[-1] += 1
        elif c == '}' and stack:
            stack[-1] -= 1
        if not c.isspace():
            prev = c if c in '(,=:[!&|?{};+-*%<>~^' else 'x'
        i += 1
    return out


def catalogue():
    """Every key of web/strings/*.js with its Chinese text."""
    zh = {}
    for f in sorted(glob.glob(os.path.join(WEB, 'strings', '*.js'))):
        text = open(f, encoding='utf-8').read()
        for m in re.finditer(r"^\s*'?([\w-]+)'?: \{ en: (?:'(?:\\.|[^'])*'|`[^`]*`), zh: ('(?:\\.|[^'])*'|`[^`]*`) \},?$", text, re.M):
            zh[m.group(1)] = m.group(2)[1:-1]
    return zh


T_CALL = re.compile(r"\bt\('([\w-]+)'")


def board_keys(src):
    """Catalogue keys a game module writes into a board's text: t('key') on a
    line that sets a `textContent`, or on the line that defines the variable
    a `textContent` is set from (`const note = … t('key') …`)."""
    lines = src.split('\n')
    keys = []
    names = set(re.findall(r'textContent\s*=\s*(\w+)\s*;', src))
    for line in lines:
        m = re.match(r'\s*(?:const|let|var)\s+(\w+)\s*=', line)
        if 'textContent' in line or (m and m.group(1) in names):
            keys += T_CALL.findall(line)
    return keys


def sources():
    """(source name, text) pairs whose CJK characters the font must hold."""
    out = []
    zh = catalogue()
    for f in sorted(glob.glob(os.path.join(WEB, 'games', '*.js'))) + sorted(glob.glob(os.path.join(WEB, '*.js'))):
        src = open(f, encoding='utf-8').read()
        out.append((os.path.relpath(f, ROOT), ''.join(literals(src))))
        if os.path.basename(os.path.dirname(f)) == 'games':
            keys = sorted(set(board_keys(src)))
            missing = [k for k in keys if k not in zh]
            if missing:
                sys.exit(f'piece-font: {os.path.relpath(f, ROOT)} draws keys with no Chinese in web/strings/: {", ".join(missing)}')
            if keys:
                out.append((f'{os.path.relpath(f, ROOT)} board words ' + ' '.join(keys), ''.join(zh[k] for k in keys)))
    html = open(os.path.join(WEB, 'index.html'), encoding='utf-8').read()
    m = re.search(r'<header.*?</header>', html, re.S)
    header = m.group(0) if m else ''
    out.append(('web/index.html <header>', re.sub(r'<!--.*?-->', '', header, flags=re.S)))
    keys = re.findall(r'data-i18n="([\w-]+)"', header) + HEADER_KEYS
    missing = [k for k in keys if k not in zh]
    if missing:
        sys.exit(f'piece-font: header keys with no Chinese in web/strings/: {", ".join(missing)}')
    out.append(('header keys ' + ' '.join(keys), ''.join(zh[k] for k in keys)))
    out.append(('EXTRA (numerals, class words)', EXTRA))
    return out


def needed():
    chars = set()
    for _, text in sources():
        chars.update(CJK.findall(text))
    return ''.join(sorted(chars))


def build(src, out=OUT):
    from fontTools import subset
    from fontTools.ttLib import TTCollection
    glyphs = needed()
    font = next(f for f in TTCollection(src).fonts if f['name'].getDebugName(1) == FACE)
    opts = subset.Options()
    opts.flavor = 'woff2'
    opts.layout_features = []
    opts.hinting = False
    opts.desubroutinize = True
    opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    s = subset.Subsetter(opts)
    s.populate(text=glyphs)
    s.subset(font)
    names = font['name']
    for rec in list(names.names):
        if rec.nameID in (1, 4, 16, 21):
            names.setName('Qiyuan Pieces', rec.nameID, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID in (3, 6, 20):
            names.setName('QiyuanPieces-Bold', rec.nameID, rec.platformID, rec.platEncID, rec.langID)
    font.flavor = 'woff2'
    font.save(out)
    print(f'{os.path.relpath(out, ROOT) if out == OUT else out}: {os.path.getsize(out)} bytes, {len(glyphs)} characters: {glyphs}')


def check(src):
    import tempfile
    from fontTools.ttLib import TTFont
    if os.path.exists(src):
        # The font can be remade here, and the remade one holds everything.
        with tempfile.TemporaryDirectory() as tmp:
            fresh = os.path.join(tmp, 'pieces.woff2')
            build(src, fresh)
            lost = set(needed()) - {chr(c) for c in TTFont(fresh).getBestCmap()}
            if lost:
                print(f'{src} has no glyph for: {"".join(sorted(lost))}', file=sys.stderr)
                return 1
    have = {chr(c) for c in TTFont(OUT).getBestCmap()}
    missing = [c for c in needed() if c not in have]
    if missing:
        print(f'{os.path.relpath(OUT, ROOT)} lacks {len(missing)} characters the page draws: {"".join(missing)}\n'
              'run python3 tools/piece-font.py (needs fonts-noto-cjk, fonttools, brotli) and commit the font', file=sys.stderr)
        return 1
    print(f'{os.path.relpath(OUT, ROOT)}: all {len(needed())} characters the page draws are in it ({os.path.getsize(OUT)} bytes)')
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--list', action='store_true', help='print the characters the page needs, by source')
    ap.add_argument('--check', action='store_true', help='exit 1 if web/pieces.woff2 lacks a character the page needs')
    ap.add_argument('--source', default=SOURCE, help='the Noto Serif CJK Bold collection (.ttc)')
    a = ap.parse_args()
    if a.list:
        for name, text in sources():
            chars = ''.join(sorted(set(CJK.findall(text))))
            if chars:
                print(f'{name}: {chars}')
        print(f'all ({len(needed())}): {needed()}')
        return 0
    if a.check:
        return check(a.source)
    build(a.source)
    return 0


if __name__ == '__main__':
    sys.exit(main())
