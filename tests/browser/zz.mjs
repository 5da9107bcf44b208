import { newPage } from './harness.mjs';
const page = await newPage();
await page.click('a[href="#/team-events"]');
await page.waitForSelector('[data-testid="team-event-form"]');
await page.fill('#te-create [name="teams"]', 'Red Army: ai:1, ai:2\nBlue Army: ai:2, ai:1\nGreen Army: ai:1, ai:1');
await page.click('#te-create button.primary');
await page.waitForTimeout(1500);
console.log('ERR', await page.locator('#te-err').textContent(), page.url());
process.exit(0);
