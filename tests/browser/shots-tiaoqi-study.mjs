// Screenshots of Tiaoqi on the analysis board (issue 39, not a test): a
// 3-player position a few moves in with the engine's paths and lines, and a
// 6-player start with the loader open; 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-tiaoqi-study.mjs OUTDIR
import { startHall, launch, eachView, shotPath } from './shots-kit.mjs';

const { server, base } = await startHall();
const browser = await launch();
try {
  await eachView(browser, async (page, sz, lang) => {
    await page.goto(base + '/#/analysis/tiaoqi-3/.%2F..%2F...%2F....%2Fcccc.....eeee%2Fccc......eee%2Fcc.......ee%2Fc........e%2F.........%2F..........%2F...........%2F............%2F.............%2Faaaa%2Faaa%2Faa%2Fa%20a%20ace/3.1-5.5,11.1-9.1,11.11-9.9,1.1-5.7,12.2-10.2,12.11-10.9,4.3-6.6/5');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 7);
    await page.click('[data-testid="engine-toggle"]');
    await page.waitForFunction(() => /(depth|深度) [5-9]/.test(document.querySelector('[data-testid="engine-depth"]').textContent), null, { timeout: 60000 });
    await page.click('[data-testid="engine-toggle"]');
    await page.screenshot({ path: shotPath(`tq-study-${sz}-${lang}.png`), fullPage: true });
    await page.evaluate(() => { location.hash = '#/analysis/tiaoqi-6'; });
    await page.waitForSelector('[data-testid="analysis-board"][data-variant="tiaoqi-6"]');
    await page.click('[data-cell="4.1"]');
    await page.screenshot({ path: shotPath(`tq-study6-${sz}-${lang}.png`), fullPage: true });
  });
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
