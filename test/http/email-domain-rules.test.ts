// The organization's address rules wherever an address enters an account: sign-up through an
// invitation link, an administrator's POST /users and an email change. A restricted organization
// admits its listed domains (and their subdomains where allowed) and no '+' addresses; an
// unrestricted one may refuse throwaway-mail domains.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { FORM_COOKIE, withFormToken } from '../support/form-csrf.js';

const HOST = 'confab.test';
const PASSWORD = 'a fine password';
const notAllowed = (email: string) =>
  `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`;
const escaped = (text: string) => text.replace(/'/g, '&#39;');

for (const dialect of testDialects()) {
  describe(`email domain rules [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await setup(dialect);
      // The reference serves the domain routes without documenting them.
      for (const [domain, allowSubdomains] of [['acme.com', false], ['corp.example', true]] as const) {
        expectSuccess(await ctx.as('olivia').post('/realm/domains', { domain, allow_subdomains: JSON.stringify(allowSubdomains) }, { undocumented: true }));
      }
    });
    after(() => ctx.close());
    beforeEach(() => setRealmSettings(ctx, { emails_restricted_to_domains: true, disallow_disposable_email_addresses: true }));

    const invite = async () => new URL(expectSuccess(await ctx.as('adam').post('/invites/multiuse', {})).invite_link).pathname;
    const signUp = async (email: string) =>
      ctx.app.inject({
        method: 'POST',
        url: await invite(),
        payload: new URLSearchParams(withFormToken({ email, full_name: 'New Person', password: PASSWORD })).toString(),
        headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
      });
    const expectRefusedPage = async (email: string, text: string) => {
      const res = await signUp(email);
      assert.equal(res.statusCode, 400, email);
      assert.ok(res.body.includes(`<p role="alert">${escaped(text)}</p>`), `${email}: ${res.body}`);
      assert.equal(res.headers['set-cookie'], undefined);
    };
    const expectSignedUp = async (email: string) => {
      const res = await signUp(email);
      assert.equal(res.statusCode, 302, `${email}: ${res.body}`);
    };
    const createUser = (email: string) => ctx.as('adam').post('/users', { email, password: 'long enough', full_name: 'Made Person' });

    it('signs up addresses of a listed domain, and of subdomains only where the domain allows them', async () => {
      await expectSignedUp('ann@acme.com');
      await expectSignedUp('Bea@ACME.com');
      await expectSignedUp('cy@corp.example');
      await expectSignedUp('di@eu.corp.example');
      await expectSignedUp('ed@a.b.corp.example');
    });

    it('refuses other domains on the sign-up page, with the reference text', async () => {
      await expectRefusedPage('fay@sales.acme.com', notAllowed('fay@sales.acme.com'));
      await expectRefusedPage('gil@confab.test', notAllowed('gil@confab.test'));
      await expectRefusedPage('hal@notacme.com', notAllowed('hal@notacme.com'));
      await expectRefusedPage('ida@xcorp.example', notAllowed('ida@xcorp.example'));
      await expectRefusedPage('jo+tag@acme.com', 'Email addresses containing + are not allowed in this organization.');
    });

    it('turns subdomains on and off with the domain', async () => {
      expectSuccess(await ctx.as('olivia').patch('/realm/domains/acme.com', { allow_subdomains: 'true' }, { undocumented: true }));
      await expectSignedUp('kim@sales.acme.com');
      expectSuccess(await ctx.as('olivia').patch('/realm/domains/acme.com', { allow_subdomains: 'false' }, { undocumented: true }));
      await expectRefusedPage('lou@sales.acme.com', notAllowed('lou@sales.acme.com'));
    });

    it('refuses throwaway-mail domains only when the organization is not restricted and says so', async () => {
      await setRealmSettings(ctx, { emails_restricted_to_domains: false });
      await expectRefusedPage('max@mailinator.com', 'Please use your real email address.');
      await expectRefusedPage('ned@Guerrillamail.com', 'Please use your real email address.');
      await expectSignedUp('ola@confab.test');
      await expectSignedUp('pat+tag@confab.test');
      // Listed as throwaway, but a masking service the reference admits.
      await expectSignedUp('pia@opayq.com');
      await setRealmSettings(ctx, { disallow_disposable_email_addresses: false });
      await expectSignedUp('quin@mailinator.com');
    });

    it('applies the same rules to POST /users, in its own words', async () => {
      expectError(await createUser('ray@confab.test'), "Email 'ray@confab.test' not allowed in this organization");
      expectError(await createUser('sam+x@acme.com'), 'Email addresses containing + are not allowed.');
      assert.equal(typeof expectSuccess(await createUser('tia@eu.corp.example')).user_id, 'number');
      await setRealmSettings(ctx, { emails_restricted_to_domains: false });
      expectError(await createUser('uma@mailinator.com'), 'Disposable email addresses are not allowed in this organization');
      expectSuccess(await createUser('vic@confab.test'));
    });

    it('applies them to an email change, in its own words', async () => {
      expectError(await ctx.as('mona').patch('/settings', { email: 'mona@confab.org' }), 'Outside your domain.');
      expectError(await ctx.as('mona').patch('/settings', { email: 'mona+x@acme.com' }), 'Email addresses containing + are not allowed.');
      expectSuccess(await ctx.as('mona').patch('/settings', { email: 'mona@corp.example' }));
      await setRealmSettings(ctx, { emails_restricted_to_domains: false });
      expectError(await ctx.as('mona').patch('/settings', { email: 'mona@mailinator.com' }), 'Please use your real email address.');
      expectSuccess(await ctx.as('mona').patch('/settings', { email: 'mona@elsewhere.org' }));
    });
  });
}
