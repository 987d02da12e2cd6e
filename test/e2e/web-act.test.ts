// Acting on messages in the web client, in headless Chromium against a real Confab: Mark writes,
// Mona reacts (the quick thumbs up and the emoji picker) and edits her own message, and Mark sees
// every change live; a topic moves to another stream, a topic is edited inline, messages are
// starred and deleted, and the edit history opens in a dialog. Everything here is reachable by
// keyboard, and one path (the actions menu) is driven by it. The menu follows the realm's rules live.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSuite, waitUntil } from '../support/browser.js';

/** A call to the API from inside the page, with its session and CSRF token. */
function apiFrom(page: Page, method: string, path: string, body: Record<string, string> = {}) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = /csrftoken=([^;]*)/.exec(document.cookie)![1]!;
      const res = await fetch(`/json${path}`, { method, headers: { 'X-CSRFToken': csrf, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });
      return (await res.json()) as Record<string, unknown>;
    },
    { method, path, body },
  );
}

describe('acting on messages in the web client', () => {
  const suite = browserSuite('web-act');
  const { check, logIn, pages } = suite;
  const article = (page: Page, text: string) => page.getByRole('main').getByRole('article').filter({ hasText: text });
  const actions = async (page: Page, text: string, item: string) => {
    await article(page, text).hover();
    await article(page, text).getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: item, exact: true }).click();
  };

  /** The home view opens at the first unread message; End goes to the newest, where new ones arrive. */
  const toNewest = async (page: Page, leaving?: string | null) => {
    // After a click on a view, the hash changes a moment later: wait for the feed to switch first.
    if (leaving !== undefined) await waitUntil(async () => (await page.locator('main .feed').getAttribute('data-narrow')) !== leaving);
    await page.locator('main .feed[aria-busy="false"]').waitFor();
    await page.keyboard.press('End');
  };

  check('shows reactions live: the quick thumbs up, toggling my own, and the emoji picker', async () => {
    const mark = await logIn('mark', 'mark@confab.test');
    const mona = await logIn('mona', 'mona@confab.test');
    await toNewest(mark);
    await toNewest(mona);
    const sent = await apiFrom(mark, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'act demo', content: 'Hello from Mark' });
    assert.equal(sent.result, 'success', JSON.stringify(sent));

    const hello = article(mona, 'Hello from Mark');
    await hello.hover();
    await hello.getByRole('button', { name: 'React with thumbs up' }).click();
    const thumbs = article(mark, 'Hello from Mark').getByRole('button', { name: ':+1: 1' });
    await thumbs.waitFor();
    assert.equal(await thumbs.getAttribute('title'), 'Mona Member reacted with :+1:');
    assert.equal(await thumbs.getAttribute('aria-pressed'), 'false');
    // Mine joins hers: two, highlighted for me, and named first in the tooltip.
    await thumbs.click();
    const both = article(mark, 'Hello from Mark').getByRole('button', { name: ':+1: 2' });
    await both.waitFor();
    assert.equal(await both.getAttribute('aria-pressed'), 'true');
    assert.equal(await both.getAttribute('title'), 'You and Mona Member reacted with :+1:');
    await hello.getByRole('button', { name: ':+1: 2' }).waitFor();

    // Mona picks 🎉 from the picker (loaded only now), searching by name.
    await actions(mona, 'Hello from Mark', 'Add emoji reaction');
    const search = mona.getByRole('dialog', { name: 'Add emoji reaction' }).getByLabel('Search emoji');
    await search.fill('tada');
    await mona.getByRole('dialog').getByRole('button', { name: ':tada:' }).waitFor();
    await search.press('Enter');
    await article(mark, 'Hello from Mark').getByRole('button', { name: ':tada: 1' }).waitFor();
    assert.equal(await mona.getByRole('dialog').count(), 0);
    // Clicking my own reaction takes it back.
    await article(mark, 'Hello from Mark').getByRole('button', { name: ':+1: 2' }).click();
    await hello.getByRole('button', { name: ':+1: 1' }).waitFor();
  });

  check('lets Mona edit her own message inline, which Mark sees live with its EDITED mark and history', async () => {
    const mark = pages.get('mark')!;
    const mona = pages.get('mona')!;
    await apiFrom(mona, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'act demo', content: 'Retro notes in the wikk' });
    await article(mark, 'Retro notes in the wikk').waitFor();
    // Mark may not delete Mona's message: his menu does not offer it (Escape closes the menu).
    await article(mark, 'Retro notes in the wikk').hover();
    await article(mark, 'Retro notes in the wikk').getByRole('button', { name: 'Message actions' }).click();
    assert.equal(await mark.getByRole('menuitem', { name: 'Delete message' }).count(), 0);
    await mark.keyboard.press('Escape');
    assert.equal(await mark.getByRole('menu').count(), 0);

    await actions(mona, 'Retro notes in the wikk', 'Edit message');
    const editor = mona.getByLabel('Edit message content');
    await waitUntil(async () => (await editor.inputValue().catch(() => '')) === 'Retro notes in the wikk');
    await editor.fill('Retro notes in the wiki');
    await editor.press('Enter');
    const edited = article(mark, 'Retro notes in the wiki');
    await edited.waitFor();
    await edited.getByText('EDITED', { exact: true }).waitFor();
    assert.equal(await mona.getByLabel('Edit message content').count(), 0);

    await actions(mark, 'Retro notes in the wiki', 'View edit history');
    const history = mark.getByRole('dialog', { name: 'Message edit history' });
    await history.getByText('Edited by Mona Member').waitFor();
    await history.getByText('Posted by Mona Member').waitFor();
    assert.equal(await history.locator('.highlight_text_inserted').first().textContent(), 'wiki');
    await mark.keyboard.press('Escape');
    await waitUntil(async () => (await mark.getByRole('dialog').count()) === 0);
    // Closing the dialog puts focus back on the message's actions button.
    await waitUntil(async () => (await mark.evaluate(() => document.activeElement?.getAttribute('aria-label'))) === 'Message actions');
  });

  check('stars a message from the keyboard and finds it under Starred', async () => {
    const mark = pages.get('mark')!;
    const tools = article(mark, 'Retro notes in the wiki').getByRole('button', { name: 'Message actions' });
    await tools.focus();
    await mark.keyboard.press('Enter');
    await mark.getByRole('menuitem').first().waitFor();
    // Arrow keys move through the menu; Enter takes the item.
    for (let i = 0; i < 10 && (await mark.evaluate(() => document.activeElement?.textContent)) !== 'Star message'; i++) await mark.keyboard.press('ArrowDown');
    await mark.keyboard.press('Enter');
    await article(mark, 'Retro notes in the wiki').getByRole('img', { name: 'Starred' }).waitFor();
    await mark.getByRole('navigation').getByRole('link', { name: /Starred/ }).click();
    await article(mark, 'Retro notes in the wiki').waitFor();
    await waitUntil(async () => (await article(mark, 'Hello from Mark').count()) === 0);
    await actions(mark, 'Retro notes in the wiki', 'Unstar message');
    await waitUntil(async () => (await article(mark, 'Retro notes in the wiki').count()) === 0);
    const starred = await mark.locator('main .feed').getAttribute('data-narrow');
    await mark.getByRole('navigation').getByRole('link', { name: /All messages/ }).click();
    // All messages opens at the first unread message again; the newest are at its end.
    await toNewest(mark, starred);
    await article(mark, 'Hello from Mark').waitFor();
  });

  check('copies a link to a message', async () => {
    const mark = pages.get('mark')!;
    await mark.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    await actions(mark, 'Hello from Mark', 'Copy link to message');
    const id = await article(mark, 'Hello from Mark').getAttribute('data-id');
    const link = await mark.evaluate(() => navigator.clipboard.readText());
    assert.match(link, new RegExp(`/#narrow/stream/\\d+-general/topic/act.20demo/near/${id}$`));
  });

  check('moves a topic to another stream and resolves it, and the other person sees both live', async () => {
    const mark = pages.get('mark')!;
    const mona = pages.get('mona')!;
    const joined = await apiFrom(mona, 'POST', '/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'engineering' }]) });
    assert.equal(joined.result, 'success', JSON.stringify(joined));
    await actions(mark, 'Hello from Mark', 'Move messages');
    const dialog = mark.getByRole('dialog', { name: 'Move messages' });
    await dialog.getByLabel('Destination stream').selectOption({ label: 'engineering' });
    assert.equal(await dialog.getByLabel('Messages to move').inputValue(), 'change_all');
    await dialog.getByLabel('Send a notice to the old thread').uncheck();
    await dialog.getByRole('button', { name: 'Move' }).click();
    await waitUntil(async () => (await mark.getByRole('dialog').count()) === 0);

    // Both of the topic's messages now sit under # engineering, marked as moved, for Mona too.
    for (const page of [mark, mona]) {
      await waitUntil(async () => {
        const bars = await page.getByRole('main').getByRole('heading', { level: 2 }).allTextContents();
        return bars.some((t) => t.includes('engineering') && t.includes('act demo')) && !bars.some((t) => t.includes('general') && t.includes('act demo'));
      });
      await article(page, 'Hello from Mark').getByText('MOVED', { exact: true }).waitFor();
      await article(page, 'Retro notes in the wiki').getByText('EDITED', { exact: true }).waitFor();
    }

    await actions(mona, 'Hello from Mark', 'Mark as resolved');
    await mark.getByRole('main').getByRole('link', { name: '✔ act demo' }).first().waitFor();
    // Resolving is not a move: the mark stays as it was.
    await article(mark, 'Hello from Mark').getByText('MOVED', { exact: true }).waitFor();
  });

  check('edits a topic inline, then deletes the message after confirmation, and it disappears for everyone', async () => {
    const mark = pages.get('mark')!;
    const mona = pages.get('mona')!;
    await apiFrom(mark, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'act demo', content: 'Oops, wrong room' });
    await article(mona, 'Oops, wrong room').waitFor();
    // First its topic changes inline, for this message only; Mona sees it under the new topic.
    await actions(mark, 'Oops, wrong room', 'Edit message');
    await mark.getByLabel('Edit topic').fill('wrong room');
    await mark.getByLabel('Apply to').selectOption('change_one');
    await mark.getByRole('form', { name: 'Edit message' }).getByRole('button', { name: 'Save' }).click();
    await mona.getByRole('main').getByRole('link', { name: 'wrong room', exact: true }).waitFor();
    await article(mona, 'Oops, wrong room').getByText('MOVED', { exact: true }).waitFor();
    await actions(mark, 'Oops, wrong room', 'Delete message');
    const confirm = mark.getByRole('dialog', { name: 'Delete message?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await article(mark, 'Oops, wrong room').count(), 1);
    await actions(mark, 'Oops, wrong room', 'Delete message');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await waitUntil(async () => (await article(mona, 'Oops, wrong room').count()) === 0 && (await article(mark, 'Oops, wrong room').count()) === 0);
  });

  check("offers only what the realm's rules allow, following a change of the rules live", async () => {
    const mark = pages.get('mark')!;
    const olivia = await logIn('olivia', 'olivia@confab.test');
    await toNewest(olivia);
    await apiFrom(mark, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'rules', content: 'Mine to delete?' });
    const menuOf = async () => {
      await article(mark, 'Mine to delete?').hover();
      await article(mark, 'Mine to delete?').getByRole('button', { name: 'Message actions' }).click();
      const items = await mark.getByRole('menuitem').allTextContents();
      await mark.keyboard.press('Escape');
      return items;
    };
    assert.ok((await menuOf()).includes('Delete message'));
    const changed = await apiFrom(olivia, 'PATCH', '/realm', { delete_own_message_policy: '2', allow_message_editing: 'false', edit_topic_policy: '2' });
    assert.equal(changed.result, 'success', JSON.stringify(changed));
    await waitUntil(async () => !(await menuOf()).includes('Delete message'));
    assert.deepEqual(await menuOf(), ['Add emoji reaction', 'Quote and reply', 'Move messages', 'Star message', 'Copy link to message']);
    // Olivia, an owner, may still delete it and edit its topic.
    await article(olivia, 'Mine to delete?').hover();
    await article(olivia, 'Mine to delete?').getByRole('button', { name: 'Message actions' }).click();
    const hers = await olivia.getByRole('menuitem').allTextContents();
    for (const item of ['Edit message', 'Move messages', 'Mark as resolved', 'Delete message']) assert.ok(hers.includes(item), hers.join());
    await apiFrom(olivia, 'PATCH', '/realm', { delete_own_message_policy: '5', allow_message_editing: 'true', edit_topic_policy: '5' });
  });
});
