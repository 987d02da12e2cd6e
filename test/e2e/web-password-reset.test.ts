// A forgotten password, in a browser: from the login page's link to the mailed link (read from the
// server's outbox folder), the new password, and the web client opening; the session another
// browser had is over, and the pages' Content-Security-Policy blocks nothing on the way.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';
import { browserSuite, policyViolations, waitUntil } from '../support/browser.js';

const NEW_PASSWORD = 'velvet compass meadow';

describe('resetting a forgotten password in the browser', () => {
  const suite = browserSuite('web-password-reset');
  const { check, logIn } = suite;

  check('mails a link whose page sets a new password and logs in, ending the other session', async () => {
    const elsewhere = await logIn('elsewhere', 'mark@confab.test');
    const page = await logIn('forgetful', 'mark@confab.test');
    await page.context().clearCookies();
    await page.goto(`${suite.server.url}/login/`);

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill('mark@confab.test');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Check your email in a few minutes to finish the process.').waitFor();

    const outbox = join(suite.server.dataDir, 'outbox');
    await waitUntil(async () => readdirSync(outbox, { withFileTypes: true }).some((entry) => entry.name.endsWith('.eml')));
    const mail = readFileSync(join(outbox, readdirSync(outbox).find((name) => name.endsWith('.eml'))!), 'utf8');
    assert.match(mail, /^Subject: Password reset request for /m);
    const link = /https?:\/\/\S+(\/accounts\/password\/reset\/[\w-]{43}\/)/.exec(mail)![1]!;

    await page.goto(`${suite.server.url}${link}`);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password').fill('not the same phrase');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('alert').filter({ hasText: 'The two password fields didn’t match.' }).waitFor();
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('navigation').getByRole('link', { name: /All messages/ }).waitFor();

    const status = await elsewhere.evaluate(async () => (await fetch('/json/users/me')).status);
    assert.equal(status, 401);
    assert.deepEqual(policyViolations(page), []);
  });
});
