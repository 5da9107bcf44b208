// Screenshots of saved studies, the opening explorer and a profile's
// results by opening (issue 39, not a test): 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-col.mjs OUTDIR
import { startHall, playLines, launch, eachView, shotPath } from './shots-kit.mjs';

const { server, base, call, reg } = await startHall();
await playLines(call, [await reg('alice'), await reg('bob'), await reg('carol')], [
  ['h2e2', 'h9g7', 'h0g2', 'i9h9'], ['h2e2', 'h9g7', 'h0g2', 'b9c7'], ['h2e2', 'b9c7', 'h0g2', 'h9g7'], ['h2e2', 'h7e7', 'h0g2', 'h9g7'],
  ['c3c4', 'c6c5', 'b0c2', 'b9c7'], ['b2e2', 'h9g7', 'b0c2', 'i9h9'], ['h2e2', 'h9g7', 'i0i1', 'i9h9'], ['g3g4', 'c6c5', 'h0g2', 'b9c7'],
], 4);
const browser = await launch();
let n = 0;
try {
  await eachView(browser, async (page, sz, lang) => {
    await page.goto(base + '/');
    await page.evaluate(async (name) => { await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: name, password: 'secret123' }), credentials: 'same-origin' }); }, `shots${n++}`);
    await page.goto(base + '/#/analysis');
    await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
    await page.waitForSelector('[data-testid="explorer-move"]');
    await page.locator('[data-testid="explorer-move"]').first().click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="explorer-move"]').length >= 2);
    await page.fill('[data-testid="study-name"]', lang === 'zh' ? '中炮对屏风马' : 'Central cannon');
    await page.click('[data-testid="study-save"]');
    await page.waitForSelector('[data-testid="study-saved"]:not([hidden])');
    await page.click('[data-testid="my-studies"] summary');
    await page.waitForSelector('[data-testid="study-row"]');
    await page.screenshot({ path: shotPath(`col-board-${sz}-${lang}.png`), fullPage: true });
    await page.locator('.study-side').screenshot({ path: shotPath(`col-side-${sz}-${lang}.png`) });
    await page.click('[data-testid="study-rename"]');
    await page.locator('[data-testid="study-collection"]').screenshot({ path: shotPath(`col-rename-${sz}-${lang}.png`) });
    await page.goto(base + '/#/user/alice');
    await page.waitForSelector('[data-testid="openings"]');
    await page.screenshot({ path: shotPath(`col-profile-${sz}-${lang}.png`), fullPage: true });
  });
} finally { await browser.close(); server.kill('SIGTERM'); }
