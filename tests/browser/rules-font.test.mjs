// Browser tests of issue 37 items 4 and 5: the rules page has a section per
// game the hall serves, in both languages, each with the numbered rules it
// plays by; the shipped font (web/pieces.woff2) holds every CJK character
// the header and the Junqi pieces draw, and a browser with no CJK font of its
// own draws them as real glyphs, not empty boxes.
// QIYUAN_SHOTS=DIR also saves screenshots of that browser (header and a
// Junqi board, 中文, 1440x900 and 390x844).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { newPage, base } from './harness.mjs';
import { serveWeb, webArgs } from './web-override.mjs';

const WEB = process.env.QIYUAN_WEB || join(dirname(fileURLToPath(import.meta.url)), '../../web');
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e]/gu;

/**
 * The characters a WOFF2 font maps (its cmap, formats 4 and 12), read with
 * node's brotli: the directory, the decompressed tables, the cmap subtables.
 * @param {Buffer} buf
 * @returns {Set<string>}
 */
function woff2Chars(buf) {
  assert.equal(buf.toString('latin1', 0, 4), 'wOF2');
  const numTables = buf.readUInt16BE(12);
  const compressed = buf.readUInt32BE(20);
  const KNOWN = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF ', 'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE', 'GDEF', 'GPOS', 'GSUB'];
  let p = 48;
  const base128 = () => { let v = 0; for (let i = 0; i < 5; i++) { const b = buf[p++]; v = v * 128 + (b & 0x7f); if (!(b & 0x80)) return v; } throw new Error('bad UIntBase128'); };
  const tables = [];
  for (let i = 0; i < numTables; i++) {
    const flags = buf[p++];
    let tag = KNOWN[flags & 0x3f];
    if ((flags & 0x3f) === 63) { tag = buf.toString('latin1', p, p + 4); p += 4; }
    const version = flags >> 6;
    const orig = base128();
    // glyf and loca are transformed at version 0; every other table at any other version.
    const transformed = tag === 'glyf' || tag === 'loca' ? version === 0 : version !== 0;
    tables.push({ tag, length: transformed ? base128() : orig });
  }
  const data = brotliDecompressSync(buf.subarray(p, p + compressed));
  let off = 0;
  const at = {};
  for (const t of tables) { at[t.tag] = off; off += t.length; }
  assert.ok('cmap' in at, 'the font has a cmap');
  const c = at.cmap;
  const chars = new Set();
  for (let i = 0; i < data.readUInt16BE(c + 2); i++) {
    const sub = c + data.readUInt32BE(c + 4 + i * 8 + 4);
    const format = data.readUInt16BE(sub);
    if (format === 4) {
      const segs = data.readUInt16BE(sub + 6) / 2;
      const ends = sub + 14, starts = ends + segs * 2 + 2, deltas = starts + segs * 2, ranges = deltas + segs * 2;
      for (let s = 0; s < segs; s++) {
        const end = data.readUInt16BE(ends + s * 2), start = data.readUInt16BE(starts + s * 2);
        const delta = data.readUInt16BE(deltas + s * 2), range = data.readUInt16BE(ranges + s * 2);
        for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
          let g;
          if (range === 0) g = (cp + delta) & 0xffff;
          else { g = data.readUInt16BE(ranges + s * 2 + range + (cp - start) * 2); if (g) g = (g + delta) & 0xffff; }
          if (g) chars.add(String.fromCodePoint(cp));
        }
      }
    } else if (format === 12) {
      const n = data.readUInt32BE(sub + 12);
      for (let g = 0; g < n; g++) {
        const r = sub + 16 + g * 12;
        for (let cp = data.readUInt32BE(r); cp <= data.readUInt32BE(r + 4); cp++) chars.add(String.fromCodePoint(cp));
      }
    }
  }
  return chars;
}

const FONT = woff2Chars(readFileSync(join(WEB, 'pieces.woff2')));
const cjkOf = (s) => [...new Set(String(s).match(CJK) || [])];

/** A Junqi game against the AI, in its set-up phase (one's own army on the board). */
async function junqiBoard(page) {
  await page.selectOption('[data-testid="game-select"]', 'junqi');
  await page.selectOption('[data-testid="opponent"]', 'ai:1');
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForFunction(() => document.querySelectorAll('svg g[data-post] text').length >= 25);
}

test('the rules page: a section per game the hall serves (跳棋 and 军棋 too), in English and 中文, each with its numbered rules', async () => {
  const page = await newPage();
  const kinds = await page.evaluate(async () => (await (await fetch('/api/kinds')).json()).kinds);
  const variants = kinds.flatMap((k) => k.variants.map((v) => v.name)).sort();
  for (const lang of ['en', 'zh']) {
    await page.evaluate((l) => localStorage.setItem('qy-lang', l), lang);
    await page.goto(base + '/#/rules');
    await page.reload();
    await page.waitForSelector('[data-testid="rules"] .rules-section');
    const sections = await page.locator('.rules-section').evaluateAll((els) => els.map((s) => ({
      id: s.getAttribute('data-testid'),
      title: s.querySelector('h3').textContent,
      variants: s.getAttribute('data-variants').split(' '),
      decisions: [...s.querySelectorAll('li[data-decisions]')].map((li) => li.getAttribute('data-decisions')),
      points: s.querySelectorAll('li').length,
      text: s.textContent,
    })));
    // Every variant the hall serves is covered, by exactly one section.
    assert.deepEqual(sections.flatMap((s) => s.variants).sort(), variants, `${lang}: every variant in one section`);
    const byId = Object.fromEntries(sections.map((s) => [s.id, s]));
    for (const id of ['rules-xiangqi', 'rules-jifen', 'rules-banqi', 'rules-tiaoqi', 'rules-junqi']) assert.ok(byId[id], `${lang}: a section ${id}`);
    // Each section states the numbered rules of its own game (X…, J…, B…, T…, Q…).
    const letters = { 'rules-xiangqi': 'X', 'rules-jifen': 'J', 'rules-banqi': 'B', 'rules-tiaoqi': 'T', 'rules-junqi': 'Q' };
    for (const s of sections) {
      assert.ok(s.decisions.length >= 5, `${lang}: ${s.id} lists its numbered rules (${s.decisions.length})`);
      const L = letters[s.id];
      if (L) for (const d of s.decisions) assert.match(d, new RegExp(`^${L}\\d+`), `${lang}: ${s.id}: ${d}`);
    }
    const nums = (s) => new Set(s.decisions.flatMap((d) => d.match(/[A-Z]\d+/g)));
    for (const d of ['Q1', 'Q4', 'Q8', 'Q9', 'Q11']) assert.ok(nums(byId['rules-junqi']).has(d), `${lang}: Junqi states ${d}`);
    for (const d of ['T4', 'T8', 'T9']) assert.ok(nums(byId['rules-tiaoqi']).has(d), `${lang}: Tiaoqi states ${d}`);
    if (lang === 'zh') {
      assert.match(byId['rules-tiaoqi'].title, /跳棋/);
      assert.match(byId['rules-junqi'].title, /军棋/);
      assert.match(byId['rules-junqi'].text, /司令/);
      // The Chinese page reads as Chinese: no English sentence in a section.
      for (const s of sections) assert.doesNotMatch(s.text.replace(/\b(ICGA|WXF|[A-Z]\d+|[a-i]\d[a-i]\d|c4c6|C2\.5)\b/g, ''), /\b[a-z]{4,} [a-z]{3,}\b/i, `${s.id} in Chinese`);
    } else {
      assert.match(byId['rules-tiaoqi'].title, /Chinese checkers/);
      assert.match(byId['rules-junqi'].title, /Junqi/);
    }
  }
  // A link to one game's rules opens the page at its section.
  await page.setViewportSize({ width: 900, height: 600 });
  await page.goto(base + '/#/rules/junqi');
  await page.waitForSelector('[data-testid="rules-junqi"]');
  await page.waitForFunction(() => { const r = document.querySelector('[data-testid="rules-junqi"]').getBoundingClientRect(); return r.top >= -2 && r.top < 100; });
  await page.context().close();
});

test('the shipped font holds every CJK character of the header (both languages) and of the Junqi pieces, and pieces use it', async () => {
  const page = await newPage();
  const missing = [];
  for (const lang of ['en', 'zh']) {
    await page.evaluate((l) => localStorage.setItem('qy-lang', l), lang);
    await page.goto(base + '/');
    await page.reload();
    await page.waitForSelector('[data-testid="create-form"]');
    const header = await page.locator('header').innerText();
    if (lang === 'en') for (const ch of '棋苑中文') assert.ok(cjkOf(header).includes(ch), `the English header draws 棋苑 and 中文 (${header})`);
    for (const ch of cjkOf(header)) if (!FONT.has(ch)) missing.push(`header (${lang}): ${ch}`);
  }
  await junqiBoard(page);
  const names = await page.locator('svg g[data-post] text').allTextContents();
  const chars = cjkOf(names.join(''));
  assert.ok(chars.length >= 15, `the Junqi pieces draw their names (${chars.join('')})`);
  for (const ch of chars) if (!FONT.has(ch)) missing.push(`Junqi piece: ${ch}`);
  assert.deepEqual(missing, [], `web/pieces.woff2 lacks: run python3 tools/piece-font.py`);
  // The pieces ask for the shipped font first, and it loads.
  const family = await page.evaluate(() => getComputedStyle(document.querySelector('svg g[data-post] text')).fontFamily);
  assert.match(family, /^"?Qiyuan Pieces"?,/);
  assert.ok(await page.evaluate(async () => (await document.fonts.load('bold 16px "Qiyuan Pieces"', '司令')).length > 0), 'the piece font loads');
  await page.context().close();
});

test('with no CJK font on the machine, the brand, the language button and the Junqi pieces are real glyphs, not boxes', async () => {
  // A chromium whose fontconfig knows only DejaVu (no CJK at all).
  const dir = mkdtempSync(join(tmpdir(), 'qiyuan-nocjk-'));
  const dejavu = ['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/dejavu'].filter(existsSync);
  writeFileSync(join(dir, 'fonts.conf'), `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>${dejavu.map((d) => `<dir>${d}</dir>`).join('')}<cachedir>${dir}/cache</cachedir></fontconfig>`);
  const browser = await chromium.launch({
    executablePath: execSync('command -v chromium').toString().trim(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', ...webArgs],
    env: { ...process.env, FONTCONFIG_FILE: join(dir, 'fonts.conf') },
  });
  const shots = process.env.QIYUAN_SHOTS;
  if (shots) mkdirSync(shots, { recursive: true });
  try {
    for (const [size, viewport] of [['desk', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
      const ctx = await browser.newContext({ viewport, locale: 'en-US' });
      await serveWeb(ctx);
      await ctx.addInitScript(() => { localStorage.setItem('qy-sound', 'off'); });
      const page = await ctx.newPage();
      page.setDefaultTimeout(15000);
      await page.goto(base + '/');
      await page.waitForSelector('[data-testid="create-form"]');
      await page.evaluate(async () => { await document.fonts.load('bold 20px "Qiyuan Pieces"', '棋苑中文司令'); });
      // Each character drawn alone on a canvas in the element's own font:
      // a character no font holds is the same empty box as any other.
      // (The element is read at once: the board may be redrawn meanwhile.)
      // Two characters the shipped font lacks (and no font here has): boxes.
      const [none1, none2] = [...'鼎彝龘鬱爨齉'].filter((c) => !FONT.has(c));
      const glyphs = (sel, text) => page.evaluate(async ([sel, text, none]) => {
        const font = `bold 24px ${getComputedStyle(document.querySelector(sel)).fontFamily}`;
        await document.fonts.load(font, text);
        const draw = (ch) => {
          const c = document.createElement('canvas'); c.width = 32; c.height = 32;
          const g = c.getContext('2d'); g.font = font; g.fillText(ch, 2, 26);
          return Array.from(g.getImageData(0, 0, 32, 32).data).join(',');
        };
        const box = draw(none);
        const blank = draw(' ');
        return [...text].map((ch) => ({ ch, box: draw(ch) === box || draw(ch) === blank }));
      }, [sel, text, none1]);
      assert.equal((await glyphs('header', none1 + none2)).filter((g) => g.box).length, 2, 'the check sees an empty box as one');
      const brand = await glyphs('header .brand', '棋苑');
      const lang = await glyphs('[data-testid="lang"]', await page.locator('[data-testid="lang"]').innerText());
      for (const g of [...brand, ...lang]) assert.equal(g.box, false, `${size}: header ${g.ch} is drawn`);
      if (shots) await page.screenshot({ path: join(shots, `nocjk-lobby-${size}-en.png`) });
      await page.evaluate(() => localStorage.setItem('qy-lang', 'zh'));
      await page.reload();
      await page.waitForSelector('[data-testid="create-form"]');
      assert.equal(await page.locator('[data-testid="lang"]').textContent(), 'English');
      await junqiBoard(page);
      const names = await page.locator('svg g[data-post] text').allTextContents();
      const pieces = await glyphs('svg g[data-post] text', cjkOf(names.join('')).join(''));
      assert.deepEqual(pieces.filter((g) => g.box).map((g) => g.ch), [], `${size}: Junqi pieces drawn as boxes (of ${pieces.map((g) => g.ch).join('')})`);
      if (shots) {
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(shots, `nocjk-junqi-${size}-zh.png`), fullPage: true });
        // The header's words (on a phone, under ☰).
        if (await page.locator('[data-testid="menu"]').isVisible()) await page.click('[data-testid="menu"]');
        await page.waitForTimeout(200);
        await page.screenshot({ path: join(shots, `nocjk-header-${size}-zh.png`) });
      }
      await ctx.close();
    }
  } finally {
    await browser.close();
  }
});

test('the Chinese page speaks as a Chinese player writes: the glossary\'s words, full-width brackets, the event forms create an event', async () => {
  const src = readFileSync(join(WEB, 'strings/glossary.js'), 'utf8');
  const glossary = (await import(`data:text/javascript,${encodeURIComponent(src)}`)).default;
  const page = await newPage('zh-CN');
  const seen = {};
  for (const route of ['#/', '#/events', '#/team-events', '#/rules', '#/leaderboard/xiangqi', '#/tv']) {
    await page.goto(`${base}/${route}`);
    await page.waitForFunction(() => document.querySelector('#view').children.length > 0 && !/^…$/.test(document.querySelector('#view').innerText.trim()));
    await page.waitForTimeout(300);
    // What the page shows, form choices included (a select shows one at a time).
    seen[route] = await page.evaluate(() => `${document.querySelector('header').innerText}\n${document.querySelector('#view').innerText}\n${[...document.querySelectorAll('#view option, #view [placeholder], #view [title]')].map((e) => e.textContent + ' ' + (e.getAttribute('placeholder') || '') + ' ' + (e.getAttribute('title') || '')).join('\n')}`);
  }
  const all = Object.values(seen).join('\n');
  for (const [idea, g] of Object.entries(glossary)) for (const bad of g.avoid) assert.ok(!all.includes(bad), `the page shows "${bad}": the glossary's word for ${idea} is ${g.zh}`);
  for (const [route, text] of Object.entries(seen)) {
    const cjkBracket = text.match(/[\u4e00-\u9fff] ?[()]|[()] ?[\u4e00-\u9fff]/g);
    assert.equal(cjkBracket, null, `${route}: ASCII brackets beside Chinese: ${cjkBracket}`);
    const cjkPunct = text.match(/[\u4e00-\u9fff][,:;!?]/g);
    assert.equal(cjkPunct, null, `${route}: ASCII punctuation after Chinese: ${cjkPunct}`);
  }
  // The lobby: a person or the computer as opponent, rated as 排位, quick play as 人机对战.
  await page.goto(`${base}/#/`);
  await page.waitForSelector('[data-testid="create-form"]');
  const opponents = await page.locator('[data-testid="opponent"] option').allTextContents();
  assert.ok(opponents.includes('等棋友加入'), `opponents: ${opponents}`);
  assert.ok(opponents.includes('电脑 3级'), `opponents: ${opponents}`);
  assert.match(await page.locator('[data-testid="create-form"]').innerText(), /排位/);
  assert.match(await page.locator('[data-testid="quick-play"]').innerText(), /人机对战/);
  // The event forms create an event, not a game.
  await page.goto(`${base}/#/events`);
  await page.waitForSelector('#ev-create button.primary');
  assert.equal((await page.locator('#ev-create button.primary').innerText()).trim(), '创建比赛');
  await page.goto(`${base}/#/team-events`);
  await page.waitForSelector('#te-create button.primary');
  assert.equal((await page.locator('#te-create button.primary').innerText()).trim(), '创建团体赛');
  // A game page's labels take the full-width colon too (Banqi's captured pieces and timeout marks).
  await page.goto(`${base}/#/`);
  await page.waitForSelector('[data-testid="create-form"]');
  await page.selectOption('[data-testid="game-select"]', 'banqi');
  await page.selectOption('[data-testid="opponent"]', 'ai:1');
  await page.click('[data-testid="create"]');
  await page.waitForSelector('[data-testid="banqi-captured"]');
  assert.match(await page.locator('[data-testid="banqi-captured"]').innerText(), /^被吃的棋子：/);
  assert.match(await page.locator('[data-testid="banqi-marks"]').innerText(), /^超时次数：/);
  // And in English, natural English.
  await page.goto(`${base}/#/team-events`);
  await page.waitForSelector('#te-create button.primary');
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('#te-create button.primary >> text=Create the team event');
  await page.goto(`${base}/#/events`);
  await page.waitForSelector('#ev-create button.primary >> text=Create event');
  await page.context().close();
});
