// Reading in the web client, in headless Chromium against a real Confab: a long topic opens at the
// first unread message, scrolling up fetches older messages without moving what is on screen, the
// keyboard moves the selection and asks for a reply, and "?" shows the shortcut help panel.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Page, Route } from 'playwright-core';
import { browserSuite, waitUntil } from '../support/browser.js';

const TOPIC = 'long read';
const COUNT = 300;
/** The first unread message: Mark has read the ones before it. */
const FIRST_UNREAD = 251;

describe('reading in the web client', () => {
  const suite = browserSuite('web-read');
  const { check, logIn, pages } = suite;

  async function apiAs(email: string) {
    const res = await fetch(`${suite.server.url}/api/v1/dev_fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email }) });
    const { api_key: key } = (await res.json()) as { api_key: string };
    const auth = `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
    return async (method: string, path: string, params: Record<string, string> = {}) => {
      for (;;) {
        const r = await fetch(`${suite.server.url}/api/v1${path}`, { method, headers: { authorization: auth }, body: method === 'GET' ? undefined : new URLSearchParams(params) });
        const body = (await r.json()) as Record<string, unknown>;
        // Writing a long topic quickly meets the per-user rate limit: wait as told, then go on.
        if (body.code === 'RATE_LIMIT_HIT') await new Promise((resolve) => setTimeout(resolve, Number(body['retry-after']) * 1000 + 10));
        else {
          assert.equal(body.result, 'success', JSON.stringify(body));
          return body;
        }
      }
    };
  }

  /** Ids and names of the articles now in the page, top to bottom. */
  const feedState = (page: Page) =>
    page.evaluate(() => {
      const feed = document.querySelector('main .feed') as HTMLElement;
      const box = feed.getBoundingClientRect();
      const articles = [...feed.querySelectorAll('article')].map((a) => {
        const r = a.getBoundingClientRect();
        return { id: Number(a.dataset.id), text: a.querySelector('.content')?.textContent ?? '', top: r.top - box.top, bottom: r.bottom - box.top, selected: a.classList.contains('selected') };
      });
      return { articles, height: feed.clientHeight, scrollTop: feed.scrollTop, scrollHeight: feed.scrollHeight };
    });

  check('opens a long topic at the first unread message, not at the newest', async () => {
    const page = await logIn('mark', 'mark@confab.test');
    // Mark looks at a view without these messages while they are written, so none is seen yet.
    await page.getByRole('navigation').getByRole('link', { name: /Starred/ }).click();
    await waitUntil(async () => new URL(page.url()).hash === '#narrow/is/starred');
    // Five people write the topic in turn, to stay under the per-person rate limit.
    const writers = await Promise.all(['olivia', 'adam', 'maya', 'mona', 'milo'].map((name) => apiAs(`${name}@confab.test`)));
    const ids: number[] = [];
    for (let i = 1; i <= COUNT; i++) {
      const { id } = await writers[i % writers.length]!('POST', '/messages', { type: 'stream', to: 'general', topic: TOPIC, content: `Filler ${i}` });
      ids.push(Number(id));
    }
    const mark = await apiAs('mark@confab.test');
    // Mark has read everything else, and this topic up to its first unread message.
    await mark('POST', '/mark_all_as_read');
    await mark('POST', '/messages/flags', { messages: JSON.stringify(ids.slice(FIRST_UNREAD - 1)), op: 'remove', flag: 'read' });

    const general = await page.getByRole('navigation').getByRole('link', { name: /# general/ }).getAttribute('href');
    await page.evaluate((hash) => (location.hash = hash), `${general}/topic/long.20read`);
    const first = page.getByRole('article').filter({ hasText: new RegExp(`Filler ${FIRST_UNREAD}$`) });
    await first.waitFor();
    const state = await feedState(page);
    const landed = state.articles.find((a) => a.id === ids[FIRST_UNREAD - 1])!;
    assert.ok(landed.top >= 0 && landed.bottom <= state.height, `first unread at ${landed.top}..${landed.bottom} of ${state.height}`);
    assert.ok(landed.selected, 'the first unread message is selected');
    assert.ok(state.scrollHeight - state.scrollTop - state.height > 200, 'the feed is not scrolled to the newest');
    // Only what is near the screen is in the page, not all the messages loaded.
    assert.ok(state.articles.length < 80, `${state.articles.length} articles rendered`);
    assert.equal(await page.getByRole('article').filter({ hasText: /Filler 1$/ }).count(), 0);
    // On screen, it is read now; the newest, far below, is still unread.
    await waitUntil(async () => !(await first.locator('xpath=.').getAttribute('class'))!.includes('unread'));
    const unread = await page.evaluate(async (id) => ((await (await fetch(`/json/messages/${id}`)).json()) as { message: { flags: string[] } }).message.flags, ids[COUNT - 1]);
    assert.ok(!unread.includes('read'), unread.join());
  });

  check('fetches older messages when scrolled up, keeping the messages on screen in place', async () => {
    const page = pages.get('mark')!;
    const oldest = page.getByRole('article').filter({ hasText: /Filler 1$/ });
    let held = false;
    // Fetches take a while, as on a slow network, so the view is seen at the top before they land
    // (long enough for a busy machine's frames to come first).
    const slow = async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    };
    await page.route(/\/json\/messages\?/, slow);
    for (let round = 0; round < 20 && (await oldest.count()) === 0; round++) {
      // To the top of what is loaded; note the message there and where it is.
      const top = await page.evaluate(async () => {
        const feed = document.querySelector('main .feed') as HTMLElement;
        feed.scrollTop = 0;
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const box = feed.getBoundingClientRect();
        const first = [...feed.querySelectorAll('article')].find((a) => a.getBoundingClientRect().bottom > box.top)!;
        return { id: Number(first.dataset.id), top: first.getBoundingClientRect().top - box.top, scrollTop: feed.scrollTop };
      });
      if (await oldest.count()) break;
      // Older messages arrive above it; the view stays on that message instead of jumping.
      await waitUntil(async () => (await feedState(page)).scrollTop > 0);
      const after = (await feedState(page)).articles.find((a) => a.id === top.id);
      assert.ok(after && Math.abs(after.top - top.top) <= 2, `message ${top.id} was at ${top.top}, now at ${after?.top}`);
      if (top.scrollTop === 0) held = true;
    }
    await page.unroute(/\/json\/messages\?/, slow);
    assert.ok(held, 'an older batch arrived while the view was at the top');
    await oldest.waitFor();
    const state = await feedState(page);
    assert.equal(state.articles[0]!.text, 'Filler 1');
  });

  check('moves the selection with j and k, and r opens a reply to the selected message', async () => {
    const page = pages.get('mark')!;
    const selected = () => page.locator('main article.selected .content').textContent();
    await page.getByRole('article').filter({ hasText: /Filler 5$/ }).click();
    assert.equal(await selected(), 'Filler 5');
    await page.keyboard.press('j');
    assert.equal(await selected(), 'Filler 6');
    await page.keyboard.press('j');
    await page.keyboard.press('ArrowDown');
    assert.equal(await selected(), 'Filler 8');
    await page.keyboard.press('k');
    assert.equal(await selected(), 'Filler 7');
    // Typing in a field keeps its keys: j is a letter there.
    await page.getByLabel('Message', { exact: true }).fill('');
    await page.getByLabel('Message', { exact: true }).press('j');
    assert.equal(await selected(), 'Filler 7');
    assert.equal(await page.getByLabel('Message', { exact: true }).inputValue(), 'j');
    await page.keyboard.press('Escape');
    await page.getByLabel('Message', { exact: true }).fill('');
    await page.keyboard.press('Escape');
    await page.keyboard.press('r');
    await waitUntil(async () => (await page.getByLabel('Topic', { exact: true }).inputValue()) === TOPIC);
    await waitUntil(async () => page.evaluate(() => document.activeElement?.id === 'compose-message'));
  });

  check('shows the keyboard shortcuts on ?, and Esc closes them', async () => {
    const page = pages.get('mark')!;
    await page.keyboard.press('Escape');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const what of ['Next message', 'Reply to the selected message', 'Next unread topic', 'Star or unstar the selected message', 'Search']) {
      await help.getByRole('row', { name: new RegExp(what) }).waitFor();
    }
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
  });

  check("loads KaTeX's stylesheet and fonts from Confab only once math is shown", async () => {
    const page = pages.get('mark')!;
    const katexSheet = () => page.evaluate(() => [...document.styleSheets].some((sheet) => /katex/i.test(sheet.href ?? '')));
    assert.equal(await katexSheet(), false);
    const fonts: string[] = [];
    page.on('response', (r) => {
      if (/KaTeX_.*\.woff2$/.test(r.url())) fonts.push(`${r.status()} ${new URL(r.url()).origin === suite.server.url}`);
    });
    const olivia = await apiAs('olivia@confab.test');
    await olivia('POST', '/messages', { type: 'stream', to: 'general', topic: TOPIC, content: 'Energy is $$E = mc^2$$' });
    await page.keyboard.press('End');
    const math = page.getByRole('article').filter({ hasText: 'Energy is' }).locator('.katex').first();
    await math.waitFor();
    await waitUntil(katexSheet);
    await waitUntil(async () => fonts.length > 0);
    assert.ok(fonts.every((f) => f === '200 true'), fonts.join());
    assert.match(await math.evaluate((el) => getComputedStyle(el).fontFamily), /KaTeX_Main/);
  });

  check('stars the selected message with *, and n goes to the next unread topic', async () => {
    const page = pages.get('mark')!;
    const last = page.getByRole('article').filter({ hasText: 'Energy is' });
    await last.click();
    await page.keyboard.press('*');
    const flags = async () => page.evaluate(async (id) => ((await (await fetch(`/json/messages/${id}`)).json()) as { message: { flags: string[] } }).message.flags, Number(await last.getAttribute('data-id')));
    await waitUntil(async () => (await flags()).includes('starred'));
    await page.keyboard.press('*');
    await waitUntil(async () => !(await flags()).includes('starred'));
    // Another topic gets a message Mark has not read; n takes him there.
    const adam = await apiAs('adam@confab.test');
    await adam('POST', '/messages', { type: 'stream', to: 'general', topic: 'next up', content: 'Over here' });
    await page.getByRole('navigation').getByRole('link', { name: /# general/ }).waitFor();
    await waitUntil(async () => {
      await page.keyboard.press('n');
      return /\/topic\/next.20up$/.test(new URL(page.url()).hash);
    });
    await page.getByRole('article').filter({ hasText: 'Over here' }).waitFor();
  });

  check('Home fetches and shows the oldest message of a long narrow that opened near its end', async () => {
    const page = pages.get('mark')!;
    await page.getByRole('navigation').getByRole('link', { name: /Starred/ }).click();
    await page.locator('main .feed[aria-busy="false"][data-narrow="#narrow/is/starred"]').waitFor();
    const general = await page.getByRole('navigation').getByRole('link', { name: /# general/ }).getAttribute('href');
    await page.evaluate((hash) => (location.hash = hash), `${general}/topic/long.20read`);
    await page.locator('main .feed[aria-busy="false"][data-narrow*="/topic/"]').waitFor();
    // Opened afresh near the newest: the oldest is not loaded (nor drawn).
    assert.equal(await page.getByRole('article').filter({ hasText: /Filler 1$/ }).count(), 0);
    await page.keyboard.press('Home');
    const oldest = page.getByRole('article').filter({ hasText: /Filler 1$/ });
    await oldest.waitFor();
    await waitUntil(async () => (await oldest.getAttribute('class'))!.split(' ').includes('selected'));
    const state = await feedState(page);
    assert.ok(state.scrollTop < 60, `scrolled to ${state.scrollTop}`);
  });
});
