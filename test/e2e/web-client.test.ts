// The web client in headless Chromium (Debian's chromium, driven by playwright-core) against a real
// Confab: two people log in through the login page in two browser contexts; one writes in a stream,
// the other sees it arrive live, narrows to its topic through the recipient bar and replies, and the
// first sees the reply. A failing test leaves a screenshot of each page under test-output/.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { browserSuite, steady, waitUntil } from '../support/browser.js';

describe('the web client in Chromium', () => {
  const suite = browserSuite('web');
  const { check, logIn, pages } = suite;

  check('redirects a browser without a session to the login page, and serves the page after login', async () => {
    const res = await fetch(`${suite.server.url}/`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/login/');
    const mark = await logIn('mark', 'mark@confab.test');
    assert.equal(new URL(mark.url()).pathname, '/');
    assert.match(await mark.title(), /^(\(\d+\) )?Confab Dev · Confab$/);
    // The seeded conversation is on the home view, each message named by its sender.
    await mark.getByRole('main').getByRole('article', { name: /Olivia Owner/ }).first().waitFor();
  });

  check('shows a stream message live to another person, who narrows to its topic and replies', async () => {
    const mark = pages.get('mark') ?? (await logIn('mark', 'mark@confab.test'));
    const mona = await logIn('mona', 'mona@confab.test');
    // The home view opens at Mona's first unread message; End (once it has loaded) takes her to the
    // newest, where new ones arrive.
    await mona.locator('main .feed[aria-busy="false"]').waitFor();
    await mona.keyboard.press('End');

    await mark.getByRole('navigation').getByRole('link', { name: /# general/ }).click();
    assert.match(new URL(mark.url()).hash, /^#narrow\/stream\/\d+-general$/);
    await mark.getByLabel('Topic', { exact: true }).fill('lunch plans');
    await mark.getByLabel('Message', { exact: true }).fill('Tacos at noon?');
    await mark.getByLabel('Message', { exact: true }).press('Control+Enter');
    await mark.getByRole('article', { name: /Mark Member/ }).filter({ hasText: 'Tacos at noon?' }).waitFor();
    await waitUntil(async () => (await mark.getByLabel('Message', { exact: true }).inputValue()) === '');

    // Mona never reloads: the message reaches her through the event queue.
    const arrived = mona.getByRole('main').getByRole('article', { name: /Mark Member/ }).filter({ hasText: 'Tacos at noon?' });
    await arrived.waitFor();
    await mona.getByRole('main').getByRole('link', { name: 'lunch plans' }).click();
    // The narrow and the compose box follow the click once the view has rendered again.
    await waitUntil(async () => /^#narrow\/stream\/\d+-general\/topic\/lunch.20plans$/.test(new URL(mona.url()).hash));
    await waitUntil(async () => (await mona.getByLabel('Topic', { exact: true }).inputValue()) === 'lunch plans');
    // The topic shows in the sidebar under its open stream.
    await mona.getByRole('navigation').getByRole('link', { name: /lunch plans/ }).waitFor();
    await mona.getByLabel('Message', { exact: true }).fill('Yes, see you there');
    await mona.getByRole('button', { name: 'Send' }).click();

    await mark.getByRole('article', { name: /Mona Member/ }).filter({ hasText: 'Yes, see you there' }).waitFor();
    const bars = await mark.getByRole('main').getByRole('heading', { level: 2 }).allTextContents();
    assert.ok(bars.some((t) => t.includes('general') && t.includes('lunch plans')), bars.join(' | '));
  });

  check('counts a new message as unread in the sidebar until it is on screen', async () => {
    const mona = pages.get('mona')!;
    const mark = pages.get('mark')!;
    const general = mona.getByRole('navigation').getByRole('link', { name: /# general/ });
    const unreadIn = async () => Number((await general.locator('.count').allTextContents())[0] ?? 0);
    // Mona looks elsewhere (a view where the new message is not shown) while Mark writes.
    await mona.getByRole('navigation').getByRole('link', { name: /Starred/ }).click();
    // Messages read in the view just left may still be reaching the server: wait for a steady count.
    const before = await steady(unreadIn);
    await mark.getByLabel('Message', { exact: true }).fill('Bring napkins');
    await mark.getByLabel('Message', { exact: true }).press('Control+Enter');
    await waitUntil(async () => (await unreadIn()) === before + 1);
    await general.click();
    // The stream opens at Mona's first unread message; End takes her to the newest.
    await waitUntil(async () => /^#narrow\/stream\/\d+-general$/.test(new URL(mona.url()).hash));
    await mona.locator('main .feed[aria-busy="false"][data-narrow^="#narrow/stream/"]').waitFor();
    await mona.keyboard.press('End');
    const napkins = mona.getByRole('article').filter({ hasText: 'Bring napkins' });
    await napkins.waitFor();
    // Seen at the bottom of the feed, it is read, here and on the server.
    await waitUntil(async () => !(await napkins.getAttribute('class'))!.split(' ').includes('unread') && (await unreadIn()) < before + 1);
    const id = Number(await napkins.getAttribute('data-id'));
    const flags = await mona.evaluate(async (messageId) => ((await (await fetch(`/json/messages/${messageId}`)).json()) as { message: { flags: string[] } }).message.flags, id);
    assert.ok(flags.includes('read'), flags.join());
  });

  check('sends a direct message from a stream view, which arrives live under its own recipient bar', async () => {
    const mona = pages.get('mona')!;
    const mark = pages.get('mark')!;
    await mark.getByRole('navigation').getByRole('link', { name: /All messages/ }).click();
    await waitUntil(async () => new URL(mark.url()).hash === '#all_messages');
    await mark.locator('main .feed[aria-busy="false"][data-narrow="#all_messages"]').waitFor();
    await mark.keyboard.press('End');
    // Mona is in a stream view: switching the compose box to a direct message asks for "To".
    await mona.getByRole('button', { name: 'Direct message instead' }).click();
    await mona.getByLabel('To', { exact: true }).fill('mark@confab.test');
    await mona.getByLabel('Message', { exact: true }).fill('Just between us');
    await mona.getByLabel('Message', { exact: true }).press('Control+Enter');
    await mark.getByRole('article', { name: /Mona Member/ }).filter({ hasText: 'Just between us' }).waitFor();
    const bar = mark.getByRole('main').getByRole('heading', { level: 2 }).last();
    assert.equal(await bar.textContent(), 'Direct messages with Mark Member, Mona Member');
    await mark.getByRole('navigation').getByRole('link', { name: /Direct messages/ }).click();
    await waitUntil(async () => new URL(mark.url()).hash === '#narrow/is/dm');
    await waitUntil(async () => (await mark.getByRole('article').filter({ hasText: 'Tacos at noon?' }).count()) === 0);
    await mark.getByRole('article').filter({ hasText: 'Just between us' }).waitFor();
  });

  check("follows the user's colour scheme setting live, light or dark", async () => {
    const mark = pages.get('mark')!;
    const theme = () => mark.evaluate(() => document.documentElement.dataset.theme);
    assert.equal(await theme(), 'auto');
    const setScheme = (scheme: number) =>
      mark.evaluate(async (value) => {
        const csrf = /csrftoken=([^;]*)/.exec(document.cookie)![1]!;
        const res = await fetch('/json/settings', { method: 'PATCH', headers: { 'X-CSRFToken': csrf, 'Content-Type': 'application/x-www-form-urlencoded' }, body: `color_scheme=${value}` });
        return res.status;
      }, scheme);
    assert.equal(await setScheme(2), 200);
    await waitUntil(async () => (await theme()) === 'dark');
    const background = await mark.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(30, 33, 39)');
    assert.equal(await setScheme(3), 200);
    await waitUntil(async () => (await theme()) === 'light');
  });

  check('opens spoilers by mouse or keyboard, and marks a mention of the reader apart', async () => {
    const mark = pages.get('mark')!;
    const mona = pages.get('mona')!;
    const sent = await mona.evaluate(async () => {
      const csrf = /csrftoken=([^;]*)/.exec(document.cookie)![1]!;
      const body = new URLSearchParams({ type: 'stream', to: 'general', topic: 'secrets', content: '@**Mark Member** guess:\n```spoiler The answer\nForty-two\n```' });
      const res = await fetch('/json/messages', { method: 'POST', headers: { 'X-CSRFToken': csrf }, body });
      return (await res.json()) as { id: number };
    });
    const streamId = await mark.evaluate(async () => ((await (await fetch('/json/get_stream_id?stream=general')).json()) as { stream_id: number }).stream_id);
    await mark.goto(`${suite.server.url}/#narrow/stream/${streamId}-general/topic/secrets`);
    const message = mark.locator(`article[data-id="${sent.id}"]`);
    await message.waitFor();
    assert.match(String(await message.getAttribute('class')), /\bmentioned\b/);
    assert.match(String(await message.locator('.user-mention').getAttribute('class')), /\bme\b/);
    const header = message.getByRole('button', { name: /The answer/ });
    const hidden = message.locator('.spoiler-content');
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    assert.equal(await hidden.isVisible(), false);
    await header.click();
    await waitUntil(async () => await hidden.isVisible());
    await header.press('Enter');
    await waitUntil(async () => !(await hidden.isVisible()));
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
  });
});
