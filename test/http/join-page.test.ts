// The page a reusable invitation link opens: the sign-up form, the account it creates (with the
// link's role and streams) and the session it starts, the reference's texts for every refusal,
// and the pages for links that cannot be used.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateMultiuseInviteLink } from '../../src/actions/invites.js';
import { createOtherRealm, setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { expectSuccess } from '../support/client.js';
import { FORM_COOKIE, withFormToken } from '../support/form-csrf.js';

const HOST = 'confab.test';
const PASSWORD = 'a fine password';

for (const dialect of testDialects()) {
  describe(`the join page [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    /** A link of adam's; its path on this server. */
    const invite = async (params: Record<string, unknown> = {}) => new URL(expectSuccess(await ctx.as('adam').post('/invites/multiuse', params)).invite_link).pathname;
    const open = (path: string) => ctx.app.inject({ method: 'GET', url: path, headers: { host: HOST } });
    const submit = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url: path,
        payload: new URLSearchParams(withFormToken(body)).toString(),
        headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
    const userNamed = (email: string) => ctx.services.db.selectFrom('user_profile').selectAll().where('delivery_email', '=', email).executeTakeFirst();
    const streamsOf = async (userId: number) =>
      (
        await ctx.services.db
          .selectFrom('subscription')
          .innerJoin('recipient', 'recipient.id', 'subscription.recipient_id')
          .select('recipient.type_id')
          .where('subscription.user_id', '=', userId)
          .where('recipient.type', '=', 2)
          .where('subscription.active', '=', 1)
          .orderBy('recipient.type_id')
          .execute()
      ).map((r) => r.type_id);

    it('shows a sign-up form with labelled fields, never cached or framed', async () => {
      const res = await open(await invite({ invite_as: 600 }));
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.match(res.body, /<h1>Sign up for Confab Dev<\/h1>\n<p>You are invited to join as a guest\.<\/p>/);
      assert.match(res.body, /<label for="email">Email<\/label><input id="email" name="email" type="email"/);
      assert.match(res.body, /<label for="full_name">Full name<\/label><input id="full_name" name="full_name"/);
      assert.match(res.body, /<label for="password">Password<\/label><input id="password" name="password" type="password"/);
      assert.match(res.body, /<button type="submit">Sign up<\/button>/);
      assert.match(res.body, /<form method="post" action="\/join\/\w+\/"><input type="hidden" name="csrfmiddlewaretoken" value="[\w-]{43}">/);
    });

    it('creates the account with the link’s role and streams, logs it in and opens the web client', async () => {
      const { engineering, design } = ctx.seed.streams;
      const path = await invite({ invite_as: 600, stream_ids: [engineering.id, design.id] });
      ctx.clearEvents();
      const res = await submit(path, { email: ' dora@confab.test ', full_name: '  Dora Newcomer ', password: PASSWORD });
      assert.equal(res.statusCode, 302, res.body);
      assert.equal(res.headers.location, '/');
      const dora = (await userNamed('dora@confab.test'))!;
      assert.deepEqual([dora.full_name, dora.role, dora.is_active, dora.is_bot], ['Dora Newcomer', 600, 1, 0]);
      assert.deepEqual(await streamsOf(dora.id), [engineering.id, design.id].sort((a, b) => a - b));
      assert.ok(ctx.events.some((d) => d.event.type === 'realm_user' && d.event.op === 'add'));
      // The cookies are a session of Dora's: the web client's routes answer her.
      const cookies = (res.headers['set-cookie'] as string[]).map((c) => c.split(';')[0]!);
      assert.deepEqual(cookies.map((c) => c.split('=')[0]), ['confab_session', 'csrftoken']);
      const me = await ctx.app.inject({ method: 'GET', url: '/json/users/me', headers: { host: HOST, cookie: cookies.join('; ') } });
      assert.equal(me.json().user_id, dora.id);
      // And she can log in with the password she chose.
      const login = await submit('/accounts/login/', { username: 'dora@confab.test', password: PASSWORD });
      assert.equal(login.statusCode, 302);
      // The link is reusable.
      assert.equal((await submit(path, { email: 'ed@confab.test', full_name: 'Ed Second', password: PASSWORD })).statusCode, 302);
    });

    it('subscribes to the default streams when the link names none', async () => {
      const res = await submit(await invite(), { email: 'fay@confab.test', full_name: 'Fay Default', password: PASSWORD });
      assert.equal(res.statusCode, 302);
      const fay = (await userNamed('fay@confab.test'))!;
      assert.equal(fay.role, 400);
      assert.deepEqual(await streamsOf(fay.id), [ctx.seed.streams.general.id]);
    });

    it('gives the reference’s reason on the form, keeping what was typed but the password, and creates nobody', async () => {
      const path = await invite();
      const { gus } = ctx.seed.users;
      const cases: Array<[Record<string, string>, string]> = [
        [{ email: '', full_name: 'No Address', password: PASSWORD }, 'This field is required.'],
        [{ email: 'not-an-address', full_name: 'Bad Address', password: PASSWORD }, 'Enter a valid email address.'],
        [{ email: `user${gus.id}@confab.test`, full_name: 'Placeholder', password: PASSWORD }, 'Enter a valid email address.'],
        [{ email: 'hal@confab.test', full_name: '   ', password: PASSWORD }, 'This field is required.'],
        [{ email: 'hal@confab.test', full_name: 'H', password: PASSWORD }, 'Name too short!'],
        [{ email: 'hal@confab.test', full_name: 'Hal *Bold*', password: PASSWORD }, 'Invalid characters in name!'],
        [{ email: 'hal@confab.test', full_name: 'H'.repeat(101), password: PASSWORD }, 'Ensure this value has at most 100 characters (it has 101).'],
        [{ email: 'hal@confab.test', full_name: 'Hal Short', password: '' }, 'This field is required.'],
        [{ email: 'hal@confab.test', full_name: 'Hal Short', password: 'abc12' }, 'The password is too weak.'],
        // Long enough, but among the first guesses an attacker tries.
        [{ email: 'hal@confab.test', full_name: 'Hal Short', password: 'password123' }, 'The password is too weak.'],
        [{ email: 'hal@confab.test', full_name: 'Hal Long', password: 'p'.repeat(101) }, 'Ensure this value has at most 100 characters (it has 101).'],
      ];
      for (const [form, reason] of cases) {
        const res = await submit(path, form);
        assert.equal(res.statusCode, 400, reason);
        assert.ok(res.body.includes(`<p role="alert">${reason.replace(/'/g, '&#39;')}</p>`), `${reason}: ${res.body}`);
        assert.equal(res.headers['set-cookie'], undefined);
        assert.ok(res.body.includes(`value="${form.email}"`), 'the address stays');
        assert.ok(!res.body.includes(PASSWORD), 'the password does not come back');
      }
      assert.equal(await userNamed('hal@confab.test'), undefined);
    });

    it('sends an address with an account to the login form, and names a deactivated one', async () => {
      const path = await invite();
      const taken = await submit(path, { email: 'Mark@confab.test', full_name: 'Mark Again', password: PASSWORD });
      assert.equal(taken.statusCode, 400);
      assert.match(taken.body, /<h1>Log in to Confab Dev<\/h1><p role="alert">You&#39;ve already registered with this email address\. Please log in below\.<\/p>/);
      assert.match(taken.body, /<input id="email" name="username" type="email" autocomplete="username" value="Mark@confab.test"/);
      expectSuccess(await ctx.as('olivia').delete(`/users/${ctx.seed.users.milo.id}`));
      const gone = await submit(path, { email: 'milo@confab.test', full_name: 'Milo Again', password: PASSWORD });
      assert.equal(gone.statusCode, 400);
      assert.match(gone.body, /Your account milo@confab\.test has been deactivated\. Please contact your organization administrator to reactivate it\./);
    });

    it('admits no address while the organization restricts sign-ups to its domains (it names none)', async () => {
      const path = await invite();
      await setRealmSettings(ctx, { emails_restricted_to_domains: true });
      try {
        const res = await submit(path, { email: 'ivy@confab.test', full_name: 'Ivy Elsewhere', password: PASSWORD });
        assert.equal(res.statusCode, 400);
        assert.match(res.body, /Your email address, ivy@confab\.test, is not in one of the domains that are allowed to register for accounts in this organization\./);
      } finally {
        await setRealmSettings(ctx, { emails_restricted_to_domains: false });
      }
    });

    it('says when a link is malformed, unknown, another organization’s, expired or revoked (404, no form)', async () => {
      const expectPage = async (path: string, heading: RegExp) => {
        for (const res of [await open(path), await submit(path, { email: 'jo@confab.test', full_name: 'Jo Late', password: PASSWORD })]) {
          assert.equal(res.statusCode, 404);
          assert.match(res.body, heading);
          assert.doesNotMatch(res.body, /<form/);
        }
      };
      await expectPage('/join/short/', /<h1>Whoops\. The confirmation link is malformed\.<\/h1>/);
      await expectPage(`/join/${'z'.repeat(24)}/`, /<h1>Whoops\. We couldn&#39;t find your confirmation link in the system\.<\/h1>/);
      const { realm, owner } = await createOtherRealm(ctx, { email: 'boss@other.test', fullName: 'Other Boss' });
      const elsewhere = await runSystemAction(ctx.services, (sys) => doCreateMultiuseInviteLink(sys, realm, owner, { invitedAs: 400, expiresInMinutes: null }, []));
      await expectPage(new URL(elsewhere).pathname, /couldn&#39;t find your confirmation link/);

      const expiring = await invite({ invite_expires_in_minutes: 10 });
      ctx.clock.advance(600);
      assert.equal((await open(expiring)).statusCode, 200, 'good through its last second');
      ctx.clock.advance(1);
      await expectPage(expiring, /<h1>Whoops\. The confirmation link has expired or been deactivated\.<\/h1><p>Please contact your organization administrator for a new link\.<\/p>/);

      const revoked = await invite();
      const id = (await expectSuccess(await ctx.as('adam').get('/invites')).invites as Array<{ id: number; link_url: string }>).find((i) => i.link_url.endsWith(revoked))!.id;
      expectSuccess(await ctx.as('adam').delete(`/invites/multiuse/${id}`));
      await expectPage(revoked, /The confirmation link has expired or been deactivated\./);
      assert.equal(await userNamed('jo@confab.test'), undefined);
    });

    it('answers as revoked once the link’s creator may no longer offer it, and creates nobody', async () => {
      const { adam, olivia } = ctx.seed.users;
      const expectRevoked = async (path: string, email: string) => {
        for (const res of [await open(path), await submit(path, { email, full_name: 'Too Late', password: PASSWORD })]) {
          assert.equal(res.statusCode, 404);
          assert.match(res.body, /<h1>Whoops\. The confirmation link has expired or been deactivated\.<\/h1><p>Please contact your organization administrator for a new link\.<\/p>/);
          assert.doesNotMatch(res.body, /<form/);
        }
        assert.equal(await userNamed(email), undefined);
      };
      const setRole = async (userId: number, role: number) => expectSuccess(await ctx.as('olivia').patch(`/users/${userId}`, { role }));
      const adminLink = await invite({ invite_as: 200 });
      const memberLink = await invite({ invite_as: 400 });
      try {
        // Demoted to member: adam may make no links at all, so neither of his is honoured.
        await setRole(adam.id, 400);
        await expectRevoked(adminLink, 'new-admin@confab.test');
        await expectRevoked(memberLink, 'new-member@confab.test');
        // A moderator may not make links either (create_multiuse_invite_group is the administrators).
        await setRole(adam.id, 300);
        await expectRevoked(memberLink, 'new-member@confab.test');
      } finally {
        await setRole(adam.id, 200);
      }
      // Rights back, links back: the check is of the creator's rights now.
      assert.equal((await open(adminLink)).statusCode, 200);
      // An owner link whose creator is no longer an owner (an administrator now).
      const ownerLink = new URL(
        await runSystemAction(ctx.services, (sys) => doCreateMultiuseInviteLink(sys, ctx.seed.realm, ctx.seed.users.adam, { invitedAs: 100, expiresInMinutes: null }, [])),
      ).pathname;
      await expectRevoked(ownerLink, 'new-owner@confab.test');
      // A deactivated creator, however the deactivation came about.
      const olivias = new URL(expectSuccess(await ctx.as('olivia').post('/invites/multiuse', { invite_as: 400 })).invite_link).pathname;
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', olivia.id).execute();
      try {
        await expectRevoked(olivias, 'olivias-guest@confab.test');
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', olivia.id).execute();
      }
    });

    it('refuses a form posted from another site', async () => {
      const res = await submit(await invite(), { email: 'kim@confab.test', full_name: 'Kim Forged', password: PASSWORD }, { origin: 'https://evil.example' });
      assert.equal(res.statusCode, 403);
      assert.match(res.body, /CSRF error: Origin checking failed - the request did not come from this site\./);
      assert.equal(await userNamed('kim@confab.test'), undefined);
    });
  });
}

describe('the join page under rate limits', () => {
  let ctx: TestContext;
  before(async () => (ctx = await setup('sqlite', { config: { rateLimits: true, rateLimitAuthIp: '2/60' } })));
  after(() => ctx.close());

  it('counts every sign-up from an address, and answers 429 with Retry-After past the limit', async () => {
    const path = new URL(expectSuccess(await ctx.as('adam').post('/invites/multiuse')).invite_link).pathname;
    const submit = (email: string) =>
      ctx.app.inject({
        method: 'POST',
        url: path,
        payload: new URLSearchParams(withFormToken({ email, full_name: 'Rate Limited', password: PASSWORD })).toString(),
        headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
      });
    assert.equal((await submit('one@confab.test')).statusCode, 302);
    assert.equal((await submit('bad address')).statusCode, 400);
    const limited = await submit('three@confab.test');
    assert.equal(limited.statusCode, 429);
    // Two per minute, counted exactly: a place frees up once the first is a minute old.
    assert.equal(limited.headers['retry-after'], '60');
    assert.match(limited.body, /<p role="alert">API usage exceeded rate limit<\/p>/);
    ctx.clock.advance(60);
    assert.equal((await submit('three@confab.test')).statusCode, 302);
  });
});
