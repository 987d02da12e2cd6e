// The realm-domain routes: listing, adding, changing and removing the organization's email
// domains for sign-up, their refusals in the reference's words, and the realm_domains events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { verifyFolding } from '../support/register-state.js';

for (const dialect of testDialects()) {
  describe(`/realm/domains [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    // The reference serves these routes without documenting them in its API description.
    const quiet = { undocumented: true };
    const list = async (who: DevUserName = 'gus') => expectSuccess(await ctx.as(who).get('/realm/domains', {}, quiet)).domains;
    const add = (domain: string, allowSubdomains = false, who: DevUserName = 'olivia') =>
      ctx.as(who).post('/realm/domains', { domain, allow_subdomains: JSON.stringify(allowSubdomains) }, quiet);
    const change = (domain: string, allowSubdomains: boolean, who: DevUserName = 'olivia') =>
      ctx.as(who).patch(`/realm/domains/${domain}`, { allow_subdomains: JSON.stringify(allowSubdomains) }, quiet);
    const remove = (domain: string, who: DevUserName = 'olivia') => ctx.as(who).delete(`/realm/domains/${domain}`, {}, quiet);
    const watching = { watchers: ['olivia', 'gus'] as DevUserName[], request: { wanted: ['realm_domains', 'realm'] } };

    it('lists none at first, to anyone', async () => {
      assert.deepEqual(await list(), []);
    });

    it('adds a domain (trimmed and lower-cased), tells everyone, and lists domains in the order added', async () => {
      let answer: Record<string, any> = {};
      const labels = await verifyFolding(ctx, {
        ...watching,
        action: async () => {
          answer = expectSuccess(await add('  Acme.COM ', true));
        },
      });
      assert.deepEqual(labels, ['realm_domains/add']);
      assert.deepEqual(ctx.events[0]!.event, { type: 'realm_domains', op: 'add', realm_domain: { domain: 'acme.com', allow_subdomains: true } });
      assert.ok(ctx.events[0]!.users.includes(ctx.seed.users.gus.id));
      assert.equal(typeof answer.new_domain[0], 'number');
      assert.equal(answer.new_domain[1], 'acme.com');
      expectSuccess(await add('zeta.org'));
      assert.deepEqual(await list(), [
        { domain: 'acme.com', allow_subdomains: true },
        { domain: 'zeta.org', allow_subdomains: false },
      ]);
      expectError(await add('ACME.com'), 'The domain acme.com is already a part of your organization.');
    });

    it('refuses a domain of the wrong form, with the reference texts', async () => {
      const cases: Array<[string, string]> = [
        ['', "Invalid domain: Domain can't be empty."],
        ['test', 'Invalid domain: Domain must have at least one dot (.)'],
        [`${'a'.repeat(255)}.com`, 'Invalid domain: Domain is too long'],
        ['.com', 'Invalid domain: Domain cannot start or end with a dot (.)'],
        ['test.', 'Invalid domain: Domain cannot start or end with a dot (.)'],
        ['test...com', "Invalid domain: Consecutive '.' are not allowed."],
        ['test.-domain.com', "Invalid domain: Subdomains cannot start or end with a '-'."],
        ['test-.com', "Invalid domain: Subdomains cannot start or end with a '-'."],
        ['test_domain.com', "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
      ];
      for (const [domain, msg] of cases) expectError(await add(domain), msg);
      expectSuccess(await add('x-x.y.3.z'));
      expectSuccess(await remove('x-x.y.3.z'));
      expectError(await ctx.as('olivia').post('/realm/domains', { domain: 'a.com' }, quiet), "Missing 'allow_subdomains' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('leaves changes to owners', async () => {
      for (const who of ['adam', 'mark', 'gus'] as const) {
        expectError(await add('other.com', false, who), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
        expectError(await change('acme.com', false, who), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
        expectError(await remove('acme.com', who), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      }
      assert.equal((await list('adam')).length, 2);
    });

    it('changes whether subdomains count, and names a domain it does not know', async () => {
      const labels = await verifyFolding(ctx, { ...watching, action: async () => void expectSuccess(await change('acme.com', false)) });
      assert.deepEqual(labels, ['realm_domains/change']);
      assert.deepEqual(ctx.events[0]!.event, { type: 'realm_domains', op: 'change', realm_domain: { domain: 'acme.com', allow_subdomains: false } });
      assert.deepEqual(await list(), [
        { domain: 'acme.com', allow_subdomains: false },
        { domain: 'zeta.org', allow_subdomains: false },
      ]);
      expectError(await change('non-existent.com', true), 'No entry found for domain non-existent.com.');
    });

    it('removes a domain, and names a domain it does not know', async () => {
      await setRealmSettings(ctx, { emails_restricted_to_domains: true });
      const labels = await verifyFolding(ctx, { ...watching, action: async () => void expectSuccess(await remove('zeta.org')) });
      assert.deepEqual(labels, ['realm_domains/remove']);
      assert.deepEqual(ctx.events[0]!.event, { type: 'realm_domains', op: 'remove', domain: 'zeta.org' });
      assert.deepEqual(await list(), [{ domain: 'acme.com', allow_subdomains: false }]);
      expectError(await remove('zeta.org'), 'No entry found for domain zeta.org.');
      const realm = expectSuccess(await ctx.as('olivia').post('/register', { fetch_event_types: JSON.stringify(['realm']) }));
      assert.equal(realm.realm_emails_restricted_to_domains, true, 'a domain is still listed');
    });

    it('lifts the restriction with the last domain, since it would admit nobody', async () => {
      const labels = await verifyFolding(ctx, { ...watching, action: async () => void expectSuccess(await remove('acme.com')) });
      assert.deepEqual(labels, ['realm/update', 'realm_domains/remove']);
      assert.deepEqual(ctx.events[0]!.event, { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false });
      assert.deepEqual(await list(), []);
    });
  });
}
