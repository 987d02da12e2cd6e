// The web client under the Content-Security-Policy it is served with: logging in through the
// server's login page, the home view, a message with math, a table and an uploaded image, its
// preview in the compose box and an emoji reaction, all without the browser blocking anything.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { browserSuite, policyViolations } from '../support/browser.js';

describe('the web client under its Content-Security-Policy', () => {
  const suite = browserSuite('web-csp');
  const { check, logIn } = suite;

  check('logs in, shows and sends messages with math, a table and an image, and blocks nothing', async () => {
    const mark = await logIn('mark', 'mark@confab.test');
    const cookie = (await mark.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const entry = await fetch(`${suite.server.url}/`, { headers: { cookie } });
    assert.match(entry.headers.get('content-security-policy') ?? '', /^default-src 'self'; script-src 'self'; /);

    // An upload linked from the message shows as an inline image preview.
    const upload = await mark.evaluate(async () => {
      const form = new FormData();
      const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
      form.append('file', new File([png], 'dot.png', { type: 'image/png' }));
      const csrf = /(?:^|;\s*)csrftoken=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      const res = await fetch('/json/user_uploads', { method: 'POST', body: form, headers: { 'X-CSRFToken': csrf } });
      return ((await res.json()) as { uri: string }).uri;
    });
    const content = `Energy is $$E = mc^2$$ :tada:\n\n| left | right |\n|:-----|------:|\n| 1 | 2 |\n\n[dot.png](${upload})`;

    await mark.getByRole('navigation').getByRole('link', { name: /# general/ }).click();
    await mark.getByLabel('Topic', { exact: true }).fill('policy');
    await mark.getByLabel('Message', { exact: true }).fill(content);
    await mark.getByRole('button', { name: 'Preview' }).click();
    await mark.getByRole('region', { name: 'Preview' }).locator('.katex').first().waitFor();
    await mark.getByLabel('Message', { exact: true }).press('Control+Enter');

    const sent = mark.getByRole('article', { name: /Mark Member/ }).filter({ hasText: 'Energy is' });
    await sent.locator('.katex').first().waitFor();
    await sent.locator('td[style="text-align: left;"]').waitFor();
    const image = sent.locator('.message_inline_image img');
    await image.waitFor();
    await mark.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await image.elementHandle());
    // KaTeX's fonts load from Confab.
    await mark.waitForFunction(() => document.fonts.check('16px KaTeX_Main'));
    assert.deepEqual(policyViolations(mark), []);
  });
});
