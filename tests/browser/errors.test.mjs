// Issue 37, item 2: the page words every server error in its own language
// from the error's stable code and details, never with the server's English
// sentence. In 中文 and in English: a taken name at sign-up, a wrong password
// at login, a challenge to nobody, and a socket error frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, base, shots } from './harness.mjs';

/** Registers `name` over HTTP (outside any page). */
async function registerDirect(name) {
  const r = await fetch(`${base}/api/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: name, password: 'secret123' }) });
  assert.equal(r.status, 200, await r.text());
}

/** The server's own sentence for a request, to show the page does not print it. */
async function serverSentence(path, body) {
  const r = await fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const j = await r.json();
  assert.ok(j.error && j.code, JSON.stringify(j));
  return j.error;
}

/** Waits for the element to show some text; its text. */
async function shown(page, testid) {
  await page.waitForFunction((id) => (document.querySelector(`[data-testid="${id}"]`)?.textContent || '').trim() !== '', testid);
  return (await page.locator(`[data-testid="${testid}"]`).textContent()).trim();
}

/** No ASCII English sentence (three Latin words in a row) in a Chinese text. */
function noEnglish(text) {
  assert.doesNotMatch(text, /[A-Za-z]{2,}[\s,.:;'’]+[A-Za-z]{2,}[\s,.:;'’]+[A-Za-z]{2,}/, `English in a Chinese message: ${text}`);
  assert.match(text, /[\u4e00-\u9fff]/, `no Chinese: ${text}`);
}

async function loginForm(page, name, password, button) {
  if (!page.url().endsWith('#/login')) await page.goto(base + '/#/login');
  await page.waitForSelector('[data-testid="username"]');
  // The message of the previous try goes, so the next one is waited for.
  await page.evaluate(() => { document.querySelector('[data-testid="login-error"]').textContent = ''; });
  await page.fill('[data-testid="username"]', name);
  await page.fill('[data-testid="password"]', password);
  await page.click(`[data-testid="${button}"]`);
  return shown(page, 'login-error');
}

for (const [lang, locale] of [['zh', 'zh-CN'], ['en', 'en-US']]) {
  test(`${lang}: account errors are the page's own words, with the server's values`, async () => {
    const name = `qb98${lang === 'zh' ? 0 : 1}`;
    await registerDirect(name);
    const page = await newPage(locale);
    const serverTaken = await serverSentence('/api/register', { username: name, password: 'secret123' });
    const taken = await loginForm(page, name, 'secret123', 'do-register');
    assert.notEqual(taken, serverTaken);
    assert.ok(taken.includes(name), taken);
    if (lang === 'zh') { noEnglish(taken.replace(name, '')); assert.match(taken, /已被使用/); }
    else assert.match(taken, /^The name “qb981” is taken/);
    await shots(page, `errors-taken-${lang}`, 'login-error');

    const wrong = await loginForm(page, name, 'not-the-password', 'do-login');
    assert.equal(wrong, lang === 'zh' ? '用户名或密码错误。' : 'Wrong user name or password.');

    // A name against the naming rules: which rule, from the details.
    const short = await loginForm(page, 'ab', 'secret123', 'do-register');
    assert.equal(short, lang === 'zh' ? '用户名须为 3 至 20 个字。' : 'A user name is 3 to 20 characters.');
    await page.context().close();
  });

  test(`${lang}: a challenge to an unknown user names them in the page's language`, async () => {
    const page = await newPage(locale);
    const serverSays = `no user 'nobody-${lang}'`;
    await page.selectOption('[data-testid="opponent"]', 'open');
    await page.waitForSelector('[data-testid="challenge-name"]', { state: 'visible' });
    await page.fill('[data-testid="challenge-name"]', `nobody-${lang}`);
    await page.click('[data-testid="create"]');
    const text = await shown(page, 'create-error');
    assert.ok(!text.includes(serverSays), text);
    assert.ok(text.includes(`nobody-${lang}`), text);
    if (lang === 'zh') { noEnglish(text.replace(`nobody-${lang}`, '')); assert.equal(text, `没有名为“nobody-zh”的用户。`); }
    else assert.equal(text, 'There is no user named “nobody-en”.');
    await shots(page, `errors-challenge-${lang}`, 'create-error');
    await page.context().close();
  });

  test(`${lang}: socket error frames and unknown codes are worded by the page too`, async () => {
    const page = await newPage(locale);
    const texts = await page.evaluate(async () => {
      const { errorText } = await import('/static/util.js');
      return {
        // A frame as the hall sends it on the game's socket.
        claim: errorText({ t: 'error', error: 'claim refused (a technical foul, X8): 1 of the 120 plies …', code: 'claim_refused', details: { why: 'too_early', plies: 1, needed: 120, rule: 'X4', foul: true } }),
        range: errorText({ error: 'clock.initial_s must be 1 to 10800', code: 'out_of_range', details: { field: 'clock.initial_s', min: 1, max: 10800 } }, 400),
        // Details missing: the code's plain message, never a {placeholder}.
        bare: errorText({ error: "the name 'x' is taken", code: 'name_taken' }, 409),
        // A code this page does not know: the status's own message.
        unknown: errorText({ error: 'something new went wrong', code: 'brand_new_code' }, 429),
      };
    });
    for (const [k, v] of Object.entries(texts)) {
      assert.doesNotMatch(v, /\{\w+\}/, `${k}: ${v}`);
      assert.doesNotMatch(v, /technical foul|must be 1 to|something new/, `${k}: ${v}`);
      if (lang === 'zh') noEnglish(v);
    }
    if (lang === 'zh') {
      assert.match(texts.claim, /120 步/);
      assert.match(texts.claim, /只有 1 步/);
      assert.equal(texts.range, '每方用时（秒）须在 1 至 10800 之间。');
      assert.equal(texts.unknown, '操作太频繁，请稍后再试。');
    } else {
      assert.match(texts.claim, /needs 120 moves in a row without a capture/);
      assert.equal(texts.range, 'The time per player (seconds) must be between 1 and 10800.');
      assert.equal(texts.unknown, 'Too many requests: slow down a little.');
    }
    await page.context().close();
  });
}
