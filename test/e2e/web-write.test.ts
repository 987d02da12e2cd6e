// The compose box in headless Chromium against a real Confab: local echo and its reconciliation, a
// refused send retried, a send whose answer was lost retried without a second message, typing seen
// by the other person, a draft back after a reload, a mention picked from the suggestions by
// keyboard, the enter_sends setting and the Markdown preview.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Page, Route } from 'playwright-core';
import { browserSuite, waitUntil } from '../support/browser.js';

/** A change through the page's own session, as the client makes it. */
function call(page: Page, method: string, path: string, body = '') {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = /csrftoken=([^;]*)/.exec(document.cookie)![1]!;
      const res = await fetch(`/json${path}`, { method, headers: { 'X-CSRFToken': csrf, 'Content-Type': 'application/x-www-form-urlencoded' }, body: method === 'GET' ? undefined : body });
      return (await res.json()) as Record<string, unknown>;
    },
    { method, path, body },
  );
}

const isSend = (route: Route) => route.request().method() === 'POST';

describe('the compose box in Chromium', () => {
  const suite = browserSuite('web-write');
  const { check, logIn, pages } = suite;
  const message = (page: Page) => page.getByLabel('Message', { exact: true });

  check('shows a sent message at once, marked as sending, then the server’s message in its place', async () => {
    const mark = await logIn('mark', 'mark@confab.test');
    await mark.getByRole('navigation').getByRole('link', { name: /# general/ }).click();
    await mark.getByLabel('Topic', { exact: true }).fill('echo');
    // Hold the send until the echo has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sent: URLSearchParams | undefined;
    await mark.route('**/json/messages', async (route) => {
      if (!isSend(route)) return route.continue();
      sent = new URLSearchParams(route.request().postData() ?? '');
      await held;
      await route.continue();
    });
    await message(mark).fill('Echo, echo');
    await message(mark).press('Control+Enter');
    const echoed = mark.getByRole('article', { name: /Mark Member/ }).filter({ hasText: 'Echo, echo' });
    await echoed.getByText('Sending…').waitFor();
    assert.match(String(await echoed.getAttribute('class')), /local sending/);
    assert.equal(await message(mark).inputValue(), '');
    assert.ok(sent?.get('local_id'), 'local_id sent');
    assert.ok(sent?.get('queue_id'), 'queue_id sent');
    release();
    // The event replaces the echo: one article, with the server's id, not marked.
    // (A message one sends is also selected: only the local marks must be gone.)
    await waitUntil(async () => Number.isInteger(Number(await echoed.getAttribute('data-id'))) && !/\blocal\b/.test(String(await echoed.getAttribute('class'))));
    assert.equal(await echoed.count(), 1);
    await mark.unroute('**/json/messages');
  });

  check('keeps a refused message in the feed, marked failed, until Retry sends it or Discard drops it', async () => {
    const mark = pages.get('mark')!;
    let refusals = 1;
    await mark.route('**/json/messages', async (route) => {
      if (!isSend(route) || refusals === 0) return route.continue();
      refusals -= 1;
      await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ result: 'error', msg: 'Refused for the test', code: 'BAD_REQUEST' }) });
    });
    await message(mark).fill('Try, try again');
    await message(mark).press('Control+Enter');
    const failed = mark.getByRole('article').filter({ hasText: 'Try, try again' });
    await failed.getByText('Not sent: Refused for the test.').waitFor();
    assert.match(String(await failed.getAttribute('class')), /local failed/);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await waitUntil(async () => !/\blocal\b/.test(String(await failed.getAttribute('class'))));
    assert.equal(await failed.count(), 1);

    refusals = 1;
    await message(mark).fill('Never mind');
    await message(mark).press('Control+Enter');
    const dropped = mark.getByRole('article').filter({ hasText: 'Never mind' });
    await dropped.getByRole('button', { name: 'Discard' }).click();
    await waitUntil(async () => (await dropped.count()) === 0);
    await mark.unroute('**/json/messages');
  });

  check('retries a send whose answer was lost with the same Idempotency-Key, so the server stores it once', async () => {
    const mark = pages.get('mark')!;
    const keys: string[] = [];
    let lose = true;
    await mark.route('**/json/messages', async (route) => {
      if (!isSend(route)) return route.continue();
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (!lose) return route.continue();
      lose = false;
      // The server stores the message but its answer is lost (a proxy's 502). Sent without the
      // local_id pair, its message event does not name the echo, which so stays, failed, for Retry.
      const form = new URLSearchParams(route.request().postData() ?? '');
      form.delete('local_id');
      form.delete('queue_id');
      await route.fetch({ postData: form.toString() });
      await route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad Gateway</html>' });
    });
    await message(mark).fill('Lost and found');
    await message(mark).press('Control+Enter');
    const echo = mark.locator('article.local').filter({ hasText: 'Lost and found' });
    await echo.getByText('Not sent: HTTP 502.').waitFor();
    await echo.getByRole('button', { name: 'Retry' }).click();
    await waitUntil(async () => (await echo.count()) === 0);
    assert.equal(keys.length, 2);
    assert.match(keys[0]!, /^[0-9a-f]{32}$/);
    assert.equal(keys[1], keys[0]);
    assert.equal(await mark.getByRole('article').filter({ hasText: 'Lost and found' }).count(), 1);
    const newest = await call(mark, 'GET', '/messages?anchor=newest&num_before=20&num_after=0&narrow=%5B%5D');
    const stored = (newest.messages as Array<{ content: string }>).filter((m) => m.content.includes('Lost and found'));
    assert.equal(stored.length, 1);
    await mark.unroute('**/json/messages');
  });

  check('tells the other person who is typing, until the message is sent', async () => {
    const mark = pages.get('mark')!;
    const mona = await logIn('mona', 'mona@confab.test');
    await mark.getByRole('navigation').getByRole('link', { name: /Direct messages/ }).click();
    await mona.getByRole('button', { name: 'Direct message instead' }).click();
    // "To" suggests people too: picked by keyboard.
    await mona.getByLabel('To', { exact: true }).pressSequentially('mar');
    await mona.getByRole('listbox', { name: 'Suggestions' }).getByRole('option', { name: /Mark Member/ }).waitFor();
    await mona.getByLabel('To', { exact: true }).press('Tab');
    assert.equal(await mona.getByLabel('To', { exact: true }).inputValue(), 'mark@confab.test, ');
    await message(mona).pressSequentially('Hello the');
    const notice = mark.getByText('Mona Member is typing…');
    await notice.waitFor();
    await message(mona).pressSequentially('re');
    await message(mona).press('Control+Enter');
    await mark.getByRole('article', { name: /Mona Member/ }).filter({ hasText: 'Hello there' }).waitFor();
    await notice.waitFor({ state: 'detached' });

    // In a topic too (the client registers for stream typing notifications).
    await mark.getByRole('navigation').getByRole('link', { name: /# general/ }).click();
    await mona.getByRole('button', { name: 'Stream message instead' }).click();
    await mona.getByLabel('Stream', { exact: true }).selectOption({ label: 'general' });
    await mona.getByLabel('Topic', { exact: true }).fill('typing here');
    await message(mona).pressSequentially('Soon');
    await notice.waitFor();
    await message(mona).fill('');
    await notice.waitFor({ state: 'detached' });
  });

  check('saves what is being written as a draft, and restores it after a reload', async () => {
    const mark = pages.get('mark')!;
    await mark.getByRole('navigation').getByRole('link', { name: /# general/ }).click();
    await mark.getByLabel('Topic', { exact: true }).fill('drafty');
    await message(mark).fill('Half a thought');
    const saved = async () => ((await call(mark, 'GET', '/drafts')).drafts as { id: number; topic: string; content: string }[]).filter((d) => d.topic === 'drafty');
    await waitUntil(async () => (await saved()).length === 1 && (await saved())[0]!.content === 'Half a thought');
    const general = await mark.getByRole('navigation').getByRole('link', { name: /# general/ }).getAttribute('href');
    // A fresh page: the drafts list reopens it.
    await mark.goto(`${suite.server.url}/`);
    await mark.getByRole('navigation').getByRole('link', { name: /All messages/ }).waitFor();
    assert.equal(await message(mark).inputValue(), '');
    await mark.getByText(/^Drafts \(\d+\)$/).click();
    await mark.getByRole('list', { name: 'Drafts' }).getByRole('button', { name: /drafty/ }).click();
    assert.equal(await message(mark).inputValue(), 'Half a thought');
    assert.equal(await mark.getByLabel('Topic', { exact: true }).inputValue(), 'drafty');
    await mark.getByRole('list', { name: 'Drafts' }).waitFor({ state: 'hidden' });
    // Reloading on its topic's URL finds it by its recipient.
    await mark.goto(`${suite.server.url}/${general}/topic/drafty`);
    await mark.reload();
    await mark.getByRole('navigation').getByRole('link', { name: /All messages/ }).waitFor();
    await waitUntil(async () => (await message(mark).inputValue()) === 'Half a thought');
    // Reopened, it was not saved a second time.
    assert.equal((await saved()).length, 1);
    await message(mark).press('End');
    await message(mark).pressSequentially(', whole now');
    await message(mark).press('Control+Enter');
    await mark.getByRole('article').filter({ hasText: 'Half a thought, whole now' }).waitFor();
    // Sent, the draft is gone.
    await waitUntil(async () => (await saved()).length === 0);
  });

  check('suggests people for an @-mention and picks one by keyboard', async () => {
    const mark = pages.get('mark')!;
    await message(mark).fill('');
    await message(mark).pressSequentially('Ask @mon');
    const list = mark.getByRole('listbox', { name: 'Suggestions' });
    await list.getByRole('option', { name: /Mona Member/ }).waitFor();
    assert.equal(await list.getByRole('option').first().getAttribute('aria-selected'), 'true');
    assert.equal(await message(mark).getAttribute('aria-activedescendant'), 'compose-message-suggestions-0');
    await message(mark).press('Enter');
    assert.equal(await message(mark).inputValue(), 'Ask @**Mona Member** ');
    await list.waitFor({ state: 'detached' });
    // Esc closes the list without changing the text.
    await message(mark).pressSequentially('and #gen');
    await list.getByRole('option', { name: '#general' }).waitFor();
    await message(mark).press('Escape');
    await list.waitFor({ state: 'detached' });
    assert.equal(await message(mark).inputValue(), 'Ask @**Mona Member** and #gen');
    // Emoji names come from the server's emoji data, loaded on first use.
    await message(mark).fill('');
    await message(mark).pressSequentially('Yay :tad');
    await list.getByRole('option', { name: ':tada:' }).click();
    assert.equal(await message(mark).inputValue(), 'Yay :tada: ');
  });

  check('previews the Markdown, and follows the enter_sends setting', async () => {
    const mark = pages.get('mark')!;
    await message(mark).fill('Some **bold** words');
    await mark.getByRole('button', { name: 'Preview' }).click();
    const preview = mark.getByRole('region', { name: 'Preview' });
    await waitUntil(async () => (await preview.innerHTML()).includes('<strong>bold</strong>'));
    await mark.getByRole('button', { name: 'Preview' }).click();
    await preview.waitFor({ state: 'detached' });
    // enter_sends off (the default): Enter is a new line.
    await message(mark).fill('Line one');
    await message(mark).press('Enter');
    assert.equal(await message(mark).inputValue(), 'Line one\n');
    assert.equal((await call(mark, 'PATCH', '/settings', 'enter_sends=true')).result, 'success');
    await mark.getByText('Enter to send, Shift+Enter for a new line').waitFor();
    await message(mark).press('Shift+Enter');
    await message(mark).pressSequentially('line two');
    await message(mark).press('Enter');
    await mark.getByRole('article').filter({ hasText: 'line two' }).waitFor();
    assert.equal(await message(mark).inputValue(), '');
  });
});
