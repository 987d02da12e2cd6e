// Resetting a forgotten password through the server's pages: the mailed link (written to the
// outbox folder), the new password and the session it starts, the other sessions it ends, the
// same answer for any address, and the links and forms that are refused.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { MemoryRateLimitStore } from '../../src/adapters/rate-limit/memory.js';
import { defaultConfig } from '../../src/config.js';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { RuleRateLimiter, rulesFromConfig } from '../../src/http/rate-limit.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { FORM_COOKIE, withFormToken } from '../support/form-csrf.js';

const HOST = 'confab.test';
const NEW_PASSWORD = 'plum orchard lantern';
const THREE_DAYS = 3 * 24 * 3600;

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

for (const dialect of testDialects()) {
  describe(`password reset pages [${dialect}]`, () => {
    let ctx: TestContext;
    const outbox = mkdtempSync(join(tmpdir(), 'confab-outbox-'));
    before(async () => (ctx = await setup(dialect, { config: { mailOutboxDir: outbox } })));
    after(async () => {
      await ctx.close();
      rmSync(outbox, { recursive: true, force: true });
    });
    beforeEach(() => {
      for (const name of readdirSync(outbox)) rmSync(join(outbox, name));
    });

    const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
    const post = (url: string, body: Record<string, string>, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
      ctx.app.inject({
        method: 'POST',
        url,
        remoteAddress,
        payload: form(withFormToken(body)),
        headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
    const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
    const sessionCookie = (res: { headers: Record<string, unknown> }) =>
      ((res.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split(';')[0]!).join('; ');
    const logIn = async (email: string, password = DEV_PASSWORD) => {
      const res = await post('/accounts/login/', { username: email, password });
      assert.equal(res.statusCode, 302, res.body);
      return sessionCookie(res);
    };
    const me = async (cookie: string) => (await get('/json/users/me', cookie)).statusCode;

    /** The mails in the outbox folder, parsed from their .eml files. */
    function mails(): Mail[] {
      return readdirSync(outbox)
        .sort()
        .map((name) => {
          const raw = readFileSync(join(outbox, name), 'utf8');
          const [head, text] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
          const header = (field: string) => new RegExp(`^${field}: (.*)$`, 'm').exec(head)?.[1] ?? '';
          const boundary = /boundary="([^"]+)"/.exec(header('Content-Type'))?.[1];
          assert.ok(boundary, 'a text part and an HTML part');
          const part = (type: string) => new RegExp(`--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\n\r\n([\\s\\S]*?)\r\n--${boundary}`).exec(text)?.[1] ?? '';
          return { to: header('To'), subject: header('Subject'), text: part('text/plain'), html: part('text/html') };
        });
    }
    const linkIn = (mail: Mail) => new URL(/http:\/\/confab\.test\/accounts\/password\/reset\/[\w-]{43}\//.exec(mail.text)![0]).pathname;
    async function requestLink(email: string): Promise<string> {
      const res = await post('/accounts/password/reset/', { email });
      assert.equal(res.statusCode, 302, res.body);
      const mail = mails().at(-1)!;
      return linkIn(mail);
    }
    const passwordOf = async (email: string) =>
      (await ctx.services.db.selectFrom('user_profile').select(['password_hash', 'api_key']).where('delivery_email', '=', email).executeTakeFirstOrThrow());

    it('links the login page to a form that asks for the address', async () => {
      const login = await get('/login/');
      assert.match(login.body, /<a href="\/accounts\/password\/reset\/">Forgot your password\?<\/a>/);
      const res = await get('/accounts/password/reset/');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(String(res.headers['content-security-policy']), /^default-src 'none'/);
      assert.match(res.body, /<label for="email">Email<\/label><input id="email" name="email" type="email"/);
      assert.match(res.body, /<form method="post" action="\/accounts\/password\/reset\/"><input type="hidden" name="csrfmiddlewaretoken" value="[\w-]{43}">/);
      assert.match(res.body, /<button type="submit">Reset password<\/button>/);
    });

    it('mails a link that sets a new password, logs in and ends the other sessions', async () => {
      const { mark } = ctx.seed.users;
      const phone = await logIn(mark.delivery_email);
      const laptop = await logIn(mark.delivery_email);
      const before = await passwordOf(mark.delivery_email);

      const res = await post('/accounts/password/reset/', { email: 'Mark@Confab.test' });
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, '/accounts/password/reset/done/');
      assert.match((await get('/accounts/password/reset/done/')).body, /Check your email in a few minutes to finish the process\./);
      const [mail] = mails();
      assert.deepEqual([mails().length, mail!.to, mail!.subject], [1, 'mark@confab.test', 'Password reset request for Confab Dev']);
      assert.match(mail!.text, /^Somebody \(possibly you\) requested a new password for the account Mark@Confab\.test on http:\/\/confab\.test\.\n\nClick the link below to reset your password\.\n/);

      const link = linkIn(mail!);
      assert.ok(mail!.html.includes(`<a href="http://confab.test${link}"`), mail!.html);
      assert.ok(mail!.html.includes('the account <strong>Mark@Confab.test</strong> on <a href="http://confab.test">'), mail!.html);
      const page = await get(link);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<label for="new_password1">New password<\/label><input id="new_password1" name="new_password1" type="password"/);
      assert.match(page.body, /<label for="new_password2">Confirm password<\/label><input id="new_password2" name="new_password2" type="password"/);
      assert.match(page.body, /<button type="submit">Reset password<\/button>/);

      const done = await post(link, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
      assert.equal(done.statusCode, 302, done.body);
      assert.equal(done.headers.location, '/');
      const fresh = sessionCookie(done);
      assert.equal(await me(fresh), 200);
      assert.deepEqual([await me(phone), await me(laptop)], [401, 401]);
      const rows = await ctx.services.db.selectFrom('user_session').select('id').where('user_id', '=', mark.id).execute();
      assert.equal(rows.length, 1);
      // The API key is kept, as the reference keeps it; the password is the new one.
      const afterReset = await passwordOf(mark.delivery_email);
      assert.equal(afterReset.api_key, before.api_key);
      assert.notEqual(afterReset.password_hash, before.password_hash);
      assert.equal((await post('/accounts/login/', { username: mark.delivery_email, password: DEV_PASSWORD })).statusCode, 401);
      await logIn(mark.delivery_email, NEW_PASSWORD);

      // The link worked once.
      const again = await get(link);
      assert.equal(again.statusCode, 404);
      assert.match(again.body, /The password reset link is invalid, has already been used or has expired\./);
      assert.equal((await post(link, { new_password1: 'another fine phrase', new_password2: 'another fine phrase' })).statusCode, 404);
    });

    it('answers the same for unknown and deactivated addresses, and mails them no link', async () => {
      const known = await post('/accounts/password/reset/', { email: 'mona@confab.test' });
      const unknown = await post('/accounts/password/reset/', { email: 'nobody@confab.test' });
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('delivery_email', '=', 'milo@confab.test').execute();
      const deactivated = await post('/accounts/password/reset/', { email: 'milo@confab.test' });
      await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('delivery_email', '=', 'milo@confab.test').execute();
      const shape = (res: typeof known) => [res.statusCode, res.headers.location, res.headers['set-cookie'], res.body];
      assert.deepEqual(shape(unknown), shape(known));
      assert.deepEqual(shape(deactivated), shape(known));
      const sent = mails();
      assert.deepEqual(sent.map((m) => m.to), ['mona@confab.test', 'nobody@confab.test', 'milo@confab.test']);
      assert.match(sent[1]!.text, /You do not have an account in that organization\.\n$/);
      assert.match(sent[2]!.text, /You previously had an account on http:\/\/confab\.test, but it has been deactivated\./);
      for (const mail of sent.slice(1)) assert.doesNotMatch(mail.text + mail.html, /\/accounts\/password\/reset\//);
      // Only a malformed address is told apart, and it is no one's.
      const malformed = await post('/accounts/password/reset/', { email: 'not an address' });
      assert.equal(malformed.statusCode, 400);
      assert.match(malformed.body, /<p role="alert">Enter a valid email address\.<\/p>/);
      assert.equal(mails().length, 3);
    });

    it('sends nothing for a deactivated organization, and a link stops working when its account or organization is deactivated', async () => {
      const realmId = ctx.seed.realm.id;
      const link = await requestLink('olivia@confab.test');
      const setActive = (table: 'realm' | 'user_profile', active: boolean) =>
        table === 'realm'
          ? ctx.services.db.updateTable('realm').set({ deactivated: active ? 0 : 1 }).where('id', '=', realmId).execute()
          : ctx.services.db.updateTable('user_profile').set({ is_active: active ? 1 : 0 }).where('delivery_email', '=', 'olivia@confab.test').execute();
      for (const table of ['realm', 'user_profile'] as const) {
        await setActive(table, false);
        try {
          assert.equal((await get(link)).statusCode, 404, table);
          assert.equal((await post(link, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD })).statusCode, 404, table);
          if (table === 'realm') {
            const count = mails().length;
            const res = await post('/accounts/password/reset/', { email: 'olivia@confab.test' });
            assert.deepEqual([res.statusCode, res.headers.location], [302, '/accounts/password/reset/done/']);
            assert.equal(mails().length, count);
          }
        } finally {
          await setActive(table, true);
        }
      }
      assert.equal((await get(link)).statusCode, 200);
    });

    it('refuses a link once it is three days old', async () => {
      const link = await requestLink('maya@confab.test');
      ctx.clock.advance(THREE_DAYS - 1);
      assert.equal((await get(link)).statusCode, 200);
      ctx.clock.advance(1);
      const expired = await get(link);
      assert.equal(expired.statusCode, 404);
      assert.match(expired.body, /<p role="alert">The password reset link is invalid, has already been used or has expired\.<\/p>/);
      const before = await passwordOf('maya@confab.test');
      assert.equal((await post(link, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD })).statusCode, 404);
      assert.deepEqual(await passwordOf('maya@confab.test'), before);
    });

    it('keeps the password when the two fields differ or the new one is weak', async () => {
      const link = await requestLink('gus@confab.test');
      const before = await passwordOf('gus@confab.test');
      const cases: [Record<string, string>, string][] = [
        [{ new_password1: NEW_PASSWORD, new_password2: 'plum orchard lanterns' }, 'The two password fields didn’t match.'],
        [{ new_password1: 'password123', new_password2: 'password123' }, 'The password is too weak.'],
        [{ new_password1: 'abc12', new_password2: 'abc12' }, 'The password is too weak.'],
        [{ new_password1: 'p'.repeat(101), new_password2: 'p'.repeat(101) }, 'Ensure this value has at most 100 characters (it has 101).'],
      ];
      for (const [body, reason] of cases) {
        const res = await post(link, body);
        assert.equal(res.statusCode, 400, reason);
        assert.ok(res.body.includes(`<p role="alert">${reason}</p>`), `${reason}: ${res.body}`);
        assert.equal(res.headers['set-cookie'], undefined);
      }
      assert.deepEqual(await passwordOf('gus@confab.test'), before);
      // The link still works after refused tries.
      assert.equal((await post(link, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD })).statusCode, 302);
    });

    it('needs the form token on both forms', async () => {
      const link = await requestLink('adam@confab.test');
      const count = mails().length;
      for (const [url, body] of [
        ['/accounts/password/reset/', { email: 'adam@confab.test' }],
        [link, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD }],
      ] as const) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          payload: form(body),
          headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.equal(res.statusCode, 403);
        assert.match(res.body, /<p role="alert">CSRF error: CSRF token missing\.<\/p>/);
      }
      assert.equal(mails().length, count);
      assert.equal((await get(link)).statusCode, 200);
    });

    it('limits requests per address and per client as the reference does, whether or not the address is known', async () => {
      ctx.services.rateLimiter = new RuleRateLimiter(rulesFromConfig(defaultConfig), new MemoryRateLimitStore(ctx.clock), ctx.clock);
      try {
        const ask = (email: string, ip: string) => post('/accounts/password/reset/', { email }, {}, ip).then((r) => r.statusCode);
        // Two mails an hour to one address, from any client.
        assert.deepEqual([await ask('olivia@confab.test', '10.0.0.1'), await ask('olivia@confab.test', '10.0.0.2'), await ask('olivia@confab.test', '10.0.0.3')], [302, 302, 429]);
        assert.deepEqual([await ask('ghost@confab.test', '10.0.0.1'), await ask('ghost@confab.test', '10.0.0.1'), await ask('ghost@confab.test', '10.0.0.1')], [302, 302, 429]);
        const refused = await post('/accounts/password/reset/', { email: 'olivia@confab.test' }, {}, '10.0.0.5');
        assert.equal(refused.statusCode, 429);
        assert.equal(refused.headers['retry-after'], '3600');
        assert.match(refused.body, /<h1>Rate limit exceeded\.<\/h1><p role="alert">You have exceeded the limit for how often a user can perform this action\. You can try again in 3600 seconds\.<\/p>/);
        ctx.clock.advance(3600);
        assert.equal(await ask('olivia@confab.test', '10.0.0.4'), 302);
        // Five mails a day from one client, to any addresses.
        const fromOne = [];
        for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) fromOne.push(await ask(`${name}@confab.test`, '10.0.0.9'));
        assert.deepEqual(fromOne, [302, 302, 302, 302, 302, 429]);
      } finally {
        delete ctx.services.rateLimiter;
      }
    });
  });
}
