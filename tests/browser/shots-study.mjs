// Screenshots of the analysis board (issue 39, not a test): an imported game
// with a side line and comments, the move shown in the middle of the tree,
// the engine's lines and evaluation bar, the export open, a bad file's error; 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-study.mjs OUTDIR
import { startHall, launch, eachView, shotPath } from './shots-kit.mjs';

const { server, base } = await startHall();
const browser = await launch();
const PGN = '[Event "练习"]\n[Red "甲"]\n[Black "乙"]\n{中炮对屏风马的常见开局}\n1. 炮二平五 {中炮} 马８进７ (1... 炮８平５ {顺炮} 2. 马二进三 马８进７) (1... 卒７进１ 2. 兵三进一) 2. 马二进三 车９平８ 3. 车一平二 马２进３ 4. 兵七进一 卒７进１ 5. 车二进六 {过河车} 炮８平９ 6. 车二平三 炮９退１ *\n';
try {
  await eachView(browser, async (page, sz, lang) => {
    await page.goto(base + '/#/analysis');
    await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
    await page.screenshot({ path: shotPath(`study-empty-${sz}-${lang}.png`), fullPage: true });
    await page.fill('[data-testid="paste"]', PGN);
    await page.click('[data-testid="paste-load"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length > 10);
    for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight');
    await page.click('[data-testid="engine-toggle"]');
    await page.waitForFunction(() => /(depth|深度) ([6-9]|\d\d)/.test(document.querySelector('[data-testid="engine-depth"]').textContent), null, { timeout: 60000 });
    await page.click('[data-testid="engine-toggle"]');
    await page.click('[data-testid="export"]');
    await page.screenshot({ path: shotPath(`study-tree-${sz}-${lang}.png`), fullPage: true });
    // A bad file: the error names the line.
    await page.click('[data-testid="study-load"] summary');
    await page.fill('[data-testid="paste"]', '1. h2e2 h9g7\n2. h2h9\n');
    await page.click('[data-testid="paste-load"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="study-error"]').textContent.length > 20);
    await page.screenshot({ path: shotPath(`study-error-${sz}-${lang}.png`), fullPage: true });
  });
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
