// Screenshots of the explorer's engine view and the Jifen editor's game
// state (issue 39, not a test): 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-st.mjs OUTDIR
import { startHall, playLines, launch, eachView, shotPath } from './shots-kit.mjs';

const { server, base, call, reg } = await startHall();
await playLines(call, [await reg('alice'), await reg('bob'), await reg('carol')], [['h2e2', 'h9g7'], ['h2e2', 'b9c7'], ['c3c4', 'c6c5'], ['b2e2', 'h9g7'], ['h2e2', 'h7e7'], ['g3g4', 'c6c5']]);
const browser = await launch();
try {
  await eachView(browser, async (page, sz, lang) => {
    await page.goto(base + '/#/analysis');
    await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
    await page.waitForSelector('[data-testid="explorer-engine-best"]', { timeout: 60000 });
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="explorer-eval"]')].every((c) => !/…/.test(c.textContent)), null, { timeout: 60000 });
    await page.screenshot({ path: shotPath(`st-explorer-${sz}-${lang}.png`), fullPage: true });
    await page.locator('[data-testid="explorer"]').screenshot({ path: shotPath(`st-explorer-panel-${sz}-${lang}.png`) });
    // The Jifen contest editor with its game state, an impossible one refused.
    await page.goto(base + '/#/analysis/jifen-contest');
    await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
    await page.click('[data-testid="edit-position"]');
    await page.check('[data-testid="editor-side-second"]');
    await page.fill('[data-testid="editor-move-number"]', '1');
    await page.dispatchEvent('[data-testid="editor-move-number"]', 'change');
    await page.check('[data-testid="editor-side-first"]');
    await page.check('[data-testid="editor-second"]');
    await page.click('[data-testid="editor-analyse"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="editor-error"]').textContent.length > 0);
    await page.screenshot({ path: shotPath(`st-editor-${sz}-${lang}.png`), fullPage: true });
    await page.locator('.editor-side').screenshot({ path: shotPath(`st-editor-side-${sz}-${lang}.png`) });
  });
} finally { await browser.close(); server.kill('SIGTERM'); }
