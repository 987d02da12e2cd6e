// Finding one's way in the web client, in headless Chromium against a real Confab: the search box
// and its suggestions, Zulip-style URLs through back, forward and reload, marking a stream read,
// the people sidebar with presence, and the narrow-screen layout whose sidebars fold away.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSuite, steady, waitUntil } from '../support/browser.js';

const hashOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash);
const articles = (page: Page) => page.getByRole('main').getByRole('article');
const feedTexts = (page: Page) => page.getByRole('main').locator('.feed .content').allTextContents();

describe('the web client: search, URLs, sidebars and people', () => {
  const suite = browserSuite('web-nav');
  const { check, logIn, pages } = suite;

  /** Sends a message as a dev user through the API (with the key dev mode hands out). */
  async function sendAs(email: string, params: Record<string, string>): Promise<void> {
    const base = `${suite.server.url}/api/v1`;
    const keyRes = await fetch(`${base}/dev_fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email }) });
    const { api_key: key } = (await keyRes.json()) as { api_key: string };
    const auth = `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
    const res = await fetch(`${base}/messages`, { method: 'POST', headers: { Authorization: auth }, body: new URLSearchParams(params) });
    assert.equal(res.status, 200, await res.text());
  }
  const postAs = (email: string, stream: string, topic: string, content: string) => sendAs(email, { type: 'stream', to: stream, topic, content });

  check('narrows by a suggestion taken from the search box, and by free text', async () => {
    const mark = await logIn('mark', 'mark@confab.test');
    const search = mark.getByRole('searchbox', { name: 'Search' });
    await search.fill('stream:eng');
    const option = mark.getByRole('option', { name: /stream:engineering/ });
    await option.waitFor();
    await search.press('ArrowDown');
    assert.equal(await option.getAttribute('aria-selected'), 'true');
    await search.press('Enter');
    await waitUntil(async () => /^#narrow\/stream\/\d+-engineering$/.test(hashOf(mark)));
    await articles(mark).filter({ hasText: 'The nightly build is green again.' }).waitFor();
    await waitUntil(async () => !(await feedTexts(mark)).some((t) => t.includes('Welcome to')));
    // The box now says where we are.
    assert.equal(await search.inputValue(), 'stream:engineering');
    // Topics of the stream named are suggested too.
    await search.fill('stream:engineering topic:rel');
    await mark.getByRole('option', { name: /topic:"release 0\.2"/ }).waitFor();

    // A sender from the people suggestions, added to the stream: a search narrow with both.
    await search.fill('stream:engineering sender:mil');
    await mark.getByRole('option', { name: /sender:milo@confab\.test/ }).click();
    await waitUntil(async () => /^#narrow\/stream\/\d+-engineering\/sender\/\d+-Milo-Member$/.test(hashOf(mark)));
    await waitUntil(async () => {
      const texts = await feedTexts(mark);
      return texts.length === 3 && texts.every((t) => /fix|search work|review faster/.test(t));
    });

    // Free words search the server's full-text index (stemmed: "pairing" finds "pair").
    await search.fill('pairing');
    await search.press('Enter');
    await waitUntil(async () => hashOf(mark) === '#narrow/search/pairing');
    await articles(mark).filter({ hasText: 'Shall we pair on the search feature tomorrow?' }).waitFor();
    await waitUntil(async () => (await feedTexts(mark)).length === 1);
  });

  check('goes back and forward across narrows, the sidebar following', async () => {
    const mark = pages.get('mark')!;
    const nav = mark.getByRole('navigation');
    await nav.getByRole('link', { name: /# general/ }).click();
    await waitUntil(async () => /^#narrow\/stream\/\d+-general$/.test(hashOf(mark)));
    await nav.getByRole('link', { name: /Starred/ }).click();
    await waitUntil(async () => hashOf(mark) === '#narrow/is/starred');
    await mark.getByText('No messages here yet.').waitFor();

    await mark.goBack();
    await waitUntil(async () => /^#narrow\/stream\/\d+-general$/.test(hashOf(mark)));
    await waitUntil(async () => (await nav.getByRole('link', { name: /# general/ }).getAttribute('aria-current')) === 'page');
    await articles(mark).filter({ hasText: 'Booked a table for four.' }).waitFor();
    await mark.goBack();
    await waitUntil(async () => hashOf(mark) === '#narrow/search/pairing');
    await waitUntil(async () => (await mark.getByRole('searchbox', { name: 'Search' }).inputValue()) === 'pairing');
    await mark.goForward();
    await mark.goForward();
    await waitUntil(async () => hashOf(mark) === '#narrow/is/starred');
    assert.equal(await nav.getByRole('link', { name: /Starred/ }).getAttribute('aria-current'), 'page');

    // A message link (Zulip's "near" form) opens its topic.
    const general = (await nav.getByRole('link', { name: /# general/ }).getAttribute('href'))!;
    const booked = await mark.evaluate(async () => {
      const narrow = JSON.stringify([{ operator: 'search', operand: 'booked table' }]);
      const res = await fetch(`/json/messages?anchor=newest&num_before=1&num_after=0&narrow=${encodeURIComponent(narrow)}`);
      return ((await res.json()) as { messages: { id: number }[] }).messages[0]!.id;
    });
    await mark.evaluate((hash) => (location.hash = hash), `${general}/topic/lunch/near/${booked}`);
    await waitUntil(async () => {
      const texts = await feedTexts(mark);
      return texts.length === 4 && texts[0] === 'Anyone up for lunch at noon?' && texts[3] === 'Booked a table for four.';
    });
  });

  check('opens the direct messages with a person from the people sidebar, and keeps them on reload', async () => {
    const mark = pages.get('mark')!;
    await mark.getByRole('complementary', { name: 'People' }).getByRole('link', { name: /^Mona Member/ }).click();
    await waitUntil(async () => /^#narrow\/dm\/\d+-Mona-Member$/.test(hashOf(mark)));
    const onlyWithMona = async () => {
      const texts = await feedTexts(mark);
      return texts.length === 3 && texts.includes('Sure, after lunch.') && !texts.some((t) => t.includes('pair'));
    };
    await waitUntil(onlyWithMona);
    const url = mark.url();
    await mark.reload();
    assert.equal(mark.url(), url);
    await waitUntil(onlyWithMona);
    assert.equal(await mark.getByRole('searchbox', { name: 'Search' }).inputValue(), 'dm:mona@confab.test');
    // The compose box is in direct-message mode for the conversation open.
    await mark.getByRole('article', { name: /Mona Member/ }).first().waitFor();
  });

  check('marks a stream, then everything, as read from the sidebar, as the server agrees', async () => {
    const mark = pages.get('mark')!;
    const nav = mark.getByRole('navigation');
    await nav.getByRole('link', { name: /Starred/ }).click();
    const row = nav.getByRole('listitem').filter({ has: mark.getByRole('link', { name: /# engineering/ }) });
    const unread = async () => Number((await row.locator('.count').allTextContents())[0] ?? 0);
    const before = await steady(unread);
    // Messages Mark is not looking at stay unread.
    await postAs('olivia@confab.test', 'engineering', 'planning', 'Planning meeting at three.');
    await postAs('adam@confab.test', 'engineering', 'builds', 'Build 43 is out.');
    await waitUntil(async () => (await unread()) === before + 2);
    await row.hover();
    await row.getByRole('button', { name: 'Mark # engineering as read' }).click();
    await waitUntil(async () => (await unread()) === 0);
    const left = await mark.evaluate(async () => {
      const narrow = JSON.stringify([{ operator: 'stream', operand: 'engineering' }, { operator: 'is', operand: 'unread' }]);
      const res = await fetch(`/json/messages?anchor=newest&num_before=100&num_after=0&narrow=${encodeURIComponent(narrow)}`);
      return ((await res.json()) as { messages: unknown[] }).messages.length;
    });
    assert.equal(left, 0);
    assert.equal(await row.getByRole('button', { name: /as read/ }).count(), 0);

    // And everything at once, from the button by "All messages".
    const all = nav.getByRole('listitem').filter({ has: mark.getByRole('link', { name: /All messages/ }) });
    await all.hover();
    await all.getByRole('button', { name: 'Mark all messages as read' }).click();
    await waitUntil(async () => (await all.locator('.count').count()) === 0 && (await nav.locator('.count').count()) === 0);
    const unreadLeft = await mark.evaluate(async () => {
      const narrow = JSON.stringify([{ operator: 'is', operand: 'unread' }]);
      return ((await (await fetch(`/json/messages?anchor=newest&num_before=100&num_after=0&narrow=${encodeURIComponent(narrow)}`)).json()) as { messages: unknown[] }).messages.length;
    });
    assert.equal(unreadLeft, 0);
    assert.match(await mark.title(), /^Confab Dev · Confab$/);
  });

  check('shows people with their presence, status and avatar', async () => {
    const mark = pages.get('mark')!;
    const people = mark.getByRole('complementary', { name: 'People' });
    await people.getByRole('link', { name: 'Mark Member (you), active' }).waitFor();
    await people.getByRole('link', { name: 'Milo Member, offline' }).waitFor();
    const mona = await logIn('mona', 'mona@confab.test');
    // Mona's first presence ping reaches Mark as an event: she is active, and listed above the offline.
    await people.getByRole('link', { name: 'Mona Member, active' }).waitFor();
    const names = await people.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('aria-label')));
    assert.ok(names.indexOf('Mona Member, active') < names.indexOf('Milo Member, offline'), names.join(' | '));
    assert.ok(!names.some((n) => n?.startsWith('Welcome Bot')), 'bots are not listed');
    const status = await mona.evaluate(async () => {
      const csrf = /csrftoken=([^;]*)/.exec(document.cookie)![1]!;
      const res = await fetch('/json/users/me/status', { method: 'POST', headers: { 'X-CSRFToken': csrf, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'status_text=At+lunch&emoji_name=taco' });
      return res.status;
    });
    assert.equal(status, 200);
    const withStatus = people.getByRole('link', { name: 'Mona Member, active, At lunch' });
    await withStatus.waitFor();
    assert.equal((await withStatus.locator('.status').textContent())?.trim(), '🌮 At lunch');
    await people.getByRole('searchbox', { name: 'Filter people' }).fill('mil');
    await waitUntil(async () => (await people.getByRole('link').count()) === 1);
    assert.equal(await people.getByRole('link').getAttribute('aria-label'), 'Milo Member, offline');
    await people.getByRole('searchbox', { name: 'Filter people' }).fill('');
    // The organization's name and icon head the left sidebar.
    assert.equal(await mark.getByRole('navigation').getByRole('heading', { level: 1 }).textContent(), 'Confab Dev');
  });

  check('notifies of direct messages and mentions while the tab is hidden, once allowed', async () => {
    const mark = pages.get('mark')!;
    // The browser's notifications and the tab's visibility are the outside world: recorded and set here.
    // (Plain text, so the compiler adds no helpers the page lacks.)
    await mark.addInitScript({
      content: `
        window.shown = [];
        window.hidden = false;
        window.Notification = class {
          static permission = 'default';
          static async requestPermission() { this.permission = 'granted'; return 'granted'; }
          constructor(title, options) { window.shown.push({ title, body: options.body }); }
          close() {}
        };
        Object.defineProperty(document, 'visibilityState', { get: () => (window.hidden ? 'hidden' : 'visible') });
      `,
    });
    await mark.reload();
    await mark.getByRole('complementary', { name: 'People' }).getByRole('link', { name: /^Mona Member/ }).click();
    const shown = () => mark.evaluate(() => (window as unknown as { shown: { title: string; body: string }[] }).shown);
    await sendAs('mona@confab.test', { type: 'direct', to: 'mark@confab.test', content: 'Not yet allowed' });
    await mark.getByRole('article').filter({ hasText: 'Not yet allowed' }).waitFor();
    const allow = mark.getByRole('button', { name: 'Enable desktop notifications' });
    await allow.click();
    await allow.waitFor({ state: 'detached' });
    await sendAs('mona@confab.test', { type: 'direct', to: 'mark@confab.test', content: 'Seen while looking' });
    await mark.getByRole('article').filter({ hasText: 'Seen while looking' }).waitFor();

    await mark.evaluate(() => ((window as unknown as { hidden: boolean }).hidden = true));
    await sendAs('mona@confab.test', { type: 'direct', to: 'mark@confab.test', content: 'Are you there?' });
    await postAs('mona@confab.test', 'general', 'lunch', 'Nobody is mentioned here');
    await postAs('mona@confab.test', 'general', 'lunch', '@**Mark Member** your table is ready');
    await waitUntil(async () => (await shown()).length >= 2);
    assert.deepEqual(await shown(), [
      { title: 'Mona Member', body: 'Are you there?' },
      { title: 'Mona Member (#general > lunch)', body: '@Mark Member your table is ready' },
    ]);
    await mark.evaluate(() => ((window as unknown as { hidden: boolean }).hidden = false));
  });

  check('lists the direct-message conversations in the sidebar, live, and p goes to the next unread one', async () => {
    const mark = pages.get('mark')!;
    const nav = mark.getByRole('navigation');
    const dms = nav.getByRole('list', { name: 'Direct message conversations' });
    const names = async () => (await dms.getByRole('link').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    await mark.evaluate(async () => {
      const csrf = /csrftoken=([^;]*)/.exec(document.cookie)![1]!;
      await fetch('/json/mark_all_as_read', { method: 'POST', headers: { 'X-CSRFToken': csrf } });
    });
    // Nothing new is read while Mark looks at his starred messages.
    await nav.getByRole('link', { name: /Starred/ }).click();
    await waitUntil(async () => hashOf(mark) === '#narrow/is/starred');
    // Newest first: Mona wrote last (the notifications test), then Mark's note to himself, then the group.
    await waitUntil(async () => (await names()).join(' | ') === 'Mona Member | You | Milo Member, Mona Member');

    await sendAs('olivia@confab.test', { type: 'direct', to: 'mark@confab.test', content: 'A word about the roadmap?' });
    await sendAs('milo@confab.test', { type: 'direct', to: 'mark@confab.test,mona@confab.test', content: 'Pairing again on Friday?' });
    await waitUntil(async () => (await names()).join(' | ') === 'Milo Member, Mona Member 1 | Olivia Owner 1 | Mona Member | You');
    await dms.getByRole('link', { name: 'Olivia Owner 1 unread', exact: true }).waitFor();

    // p opens the newest conversation with unread messages; once that is read, the next one.
    await mark.keyboard.press('p');
    await waitUntil(async () => /^#narrow\/dm\/\d+,\d+-group$/.test(hashOf(mark)));
    await articles(mark).filter({ hasText: 'Pairing again on Friday?' }).waitFor();
    const group = dms.getByRole('link', { name: /^Milo Member, Mona Member/ });
    assert.equal(await group.getAttribute('aria-current'), 'page');
    await waitUntil(async () => (await group.locator('.count').count()) === 0);
    await mark.keyboard.press('p');
    await waitUntil(async () => /^#narrow\/dm\/\d+-Olivia-Owner$/.test(hashOf(mark)));
    await articles(mark).filter({ hasText: 'A word about the roadmap?' }).waitFor();
    await waitUntil(async () => (await dms.locator('.count').count()) === 0);
    assert.equal(await dms.getByRole('link', { name: 'Olivia Owner', exact: true }).getAttribute('aria-current'), 'page');
    await mark.keyboard.press('p');
    await mark.getByRole('status').filter({ hasText: 'No more unread direct messages.' }).waitFor();

    // The conversation with himself is "You".
    await dms.getByRole('link', { name: 'You', exact: true }).click();
    await waitUntil(async () => /^#narrow\/dm\/\d+-Mark-Member$/.test(hashOf(mark)));
    await articles(mark).filter({ hasText: 'Note to self: update the release notes.' }).waitFor();
    assert.equal(await dms.getByRole('link', { name: 'You', exact: true }).getAttribute('aria-current'), 'page');
  });

  check('folds both sidebars away on a narrow screen, behind buttons', async () => {
    const mark = pages.get('mark')!;
    await mark.setViewportSize({ width: 420, height: 760 });
    const nav = mark.getByRole('navigation');
    const people = mark.getByRole('complementary', { name: 'People' });
    const navButton = mark.getByRole('button', { name: 'Views and streams' });
    const peopleButton = mark.getByRole('button', { name: 'People' });
    await waitUntil(async () => !(await nav.isVisible()) && !(await people.isVisible()));
    // The feed takes the width, and nothing sticks out sideways.
    const main = (await mark.getByRole('main').boundingBox())!;
    assert.ok(main.width >= 410, String(main.width));
    assert.ok(await mark.evaluate(() => document.documentElement.scrollWidth <= 420));
    assert.equal(await navButton.getAttribute('aria-expanded'), 'false');

    await navButton.click();
    await nav.waitFor({ state: 'visible' });
    assert.equal(await navButton.getAttribute('aria-expanded'), 'true');
    const box = (await nav.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 420, JSON.stringify(box));
    // Choosing a stream folds the sidebar away again.
    await nav.getByRole('link', { name: /# general/ }).click();
    await nav.waitFor({ state: 'hidden' });
    await waitUntil(async () => /^#narrow\/stream\/\d+-general$/.test(hashOf(mark)));

    await peopleButton.click();
    await people.waitFor({ state: 'visible' });
    assert.equal(await peopleButton.getAttribute('aria-expanded'), 'true');
    await peopleButton.click();
    await people.waitFor({ state: 'hidden' });
    // Escape folds it away too.
    await peopleButton.click();
    await people.waitFor({ state: 'visible' });
    await mark.keyboard.press('Escape');
    await people.waitFor({ state: 'hidden' });
    assert.equal(await peopleButton.getAttribute('aria-expanded'), 'false');

    // At middle widths only the people fold away.
    await mark.setViewportSize({ width: 850, height: 750 });
    await nav.waitFor({ state: 'visible' });
    await people.waitFor({ state: 'hidden' });
    assert.equal(await navButton.isVisible(), false);
    await peopleButton.click();
    await people.waitFor({ state: 'visible' });
    await peopleButton.click();

    await mark.setViewportSize({ width: 1100, height: 750 });
    await nav.waitFor({ state: 'visible' });
    await people.waitFor({ state: 'visible' });
    assert.equal(await navButton.isVisible(), false);
  });
});
