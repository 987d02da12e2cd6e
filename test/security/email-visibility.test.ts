// A user's email_address_visibility decides who sees their real address: everyone else sees the
// placeholder user{id}@{host} in every `email` field, null in `delivery_email`, no gravatar hash of
// the real address, and finds nothing when looking the real address up.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { up as hidePrivateAddresses } from '../../src/db/migrations/2026_11_25_000000_hide_private_addresses.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { gravatarUrl, setGravatarEnabled } from '../../src/lib/user-format.js';
import { ApiClient, type ApiResponse, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { verifyFolding } from '../support/register-state.js';

type Viewer = 'olivia' | 'adam' | 'maya' | 'mark' | 'gus';
const VIEWERS: readonly Viewer[] = ['olivia', 'adam', 'maya', 'mark', 'gus'];

/** Who may see the real address, per value: 1 everyone, 2 members, 3 admins, 4 nobody, 5 moderators. */
const MAY_SEE: Record<number, readonly Viewer[]> = {
  1: VIEWERS,
  2: ['olivia', 'adam', 'maya', 'mark'],
  3: ['olivia', 'adam'],
  4: [],
  5: ['olivia', 'adam', 'maya'],
};

interface Target {
  visibility: number;
  id: number;
  real: string;
  placeholder: string;
  client: ApiClient;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

for (const dialect of testDialects()) {
  describe(`email address visibility [${dialect}]`, () => {
    let ctx: TestContext;
    const targets: Target[] = [];
    before(async () => {
      // With Gravatar on, where a hash of the address could give a hidden address away.
      ctx = await setup(dialect, { config: { enableGravatar: true } });
      for (const visibility of [1, 2, 3, 4, 5]) targets.push(await createWithVisibility(visibility, `vis${visibility}@example.org`));
    });
    after(async () => {
      await ctx.close();
      setGravatarEnabled(false);
    });

    /** A new account, created through the API while the organization's default is `visibility`. */
    async function createWithVisibility(visibility: number, real: string): Promise<Target> {
      expectSuccess(await ctx.as('adam').patch('/realm/user_settings_defaults', { email_address_visibility: visibility }));
      try {
        const { user_id: id } = expectSuccess(
          await ctx.as('olivia').post('/users', { email: real, password: 'long enough password', full_name: `Visibility ${visibility}` }),
        );
        const row = await ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        const client = new ApiClient(ctx.app, ApiClient.basic(real, row.api_key));
        return { visibility, id, real, placeholder: `user${id}@confab.test`, client };
      } finally {
        expectSuccess(await ctx.as('adam').patch('/realm/user_settings_defaults', { email_address_visibility: 1 }));
      }
    }

    const mayKnow = (viewer: Viewer, target: Target) => MAY_SEE[target.visibility]!.includes(viewer);
    const apiEmail = (target: Target) => (target.visibility === 1 ? target.real : target.placeholder);
    const expectedUser = (viewer: Viewer, target: Target) => ({
      email: apiEmail(target),
      delivery_email: mayKnow(viewer, target) ? target.real : null,
      avatar_url: gravatarUrl(apiEmail(target), 1),
    });
    const pick = (user: Record<string, unknown>) => ({ email: user.email, delivery_email: user.delivery_email, avatar_url: user.avatar_url });

    /** A hidden address's hash reaches nobody; the address itself only those who may see it. */
    function assertNoTrace(body: unknown, viewer: Viewer, target: Target, where: string) {
      const text = JSON.stringify(body);
      if (target.visibility !== 1) assert.ok(!text.includes(md5(target.real)), `${where}: ${viewer} got the hash of ${target.real}`);
      if (!mayKnow(viewer, target)) assert.ok(!text.toLowerCase().includes(target.real), `${where}: ${viewer} got ${target.real}`);
    }

    it('shows each viewer role the address the setting allows, in every user object', async () => {
      for (const viewer of VIEWERS) {
        const list = expectSuccess(await ctx.as(viewer).get('/users', { client_gravatar: false }));
        const state = expectSuccess(await ctx.as(viewer).post('/register', { fetch_event_types: ['realm_user'], client_gravatar: false }));
        for (const target of targets) {
          const label = `${viewer} viewing visibility ${target.visibility}`;
          const expected = expectedUser(viewer, target);
          assert.deepEqual(pick(list.members.find((u: { user_id: number }) => u.user_id === target.id)), expected, `GET /users, ${label}`);
          const one = expectSuccess(await ctx.as(viewer).get(`/users/${target.id}`, { client_gravatar: false }));
          assert.deepEqual(pick(one.user), expected, `GET /users/{id}, ${label}`);
          assertNoTrace(one, viewer, target, 'GET /users/{id}');
          assert.deepEqual(pick(state.realm_users.find((u: { user_id: number }) => u.user_id === target.id)), expected, `register, ${label}`);
          assertNoTrace(list, viewer, target, 'GET /users');
          assertNoTrace(state, viewer, target, 'register');
        }
      }
    });

    it('always shows users their own address, beside the placeholder API email', async () => {
      for (const target of targets) {
        const me = expectSuccess(await target.client.get('/users/me'));
        assert.deepEqual(pick(me), { email: apiEmail(target), delivery_email: target.real, avatar_url: gravatarUrl(apiEmail(target), 1) });
        const state = expectSuccess(await target.client.post('/register', { fetch_event_types: ['realm_user'] }));
        assert.deepEqual([state.email, state.delivery_email], [apiEmail(target), target.real]);
      }
    });

    it('names the sender by API email in messages, message events, typing and reactions', async () => {
      const viewerIds = VIEWERS.map((v) => ctx.seed.users[v].id);
      const queues = new Map<Viewer, string>();
      for (const viewer of VIEWERS) {
        const reg = expectSuccess(await ctx.as(viewer).post('/register', { event_types: ['message'], client_gravatar: false }));
        queues.set(viewer, reg.queue_id);
      }
      const sent = new Map<number, number>();
      for (const target of targets) {
        sent.set(target.id, expectSuccess(await target.client.post('/messages', { type: 'private', to: viewerIds, content: 'hello' })).id);
      }
      for (const viewer of VIEWERS) {
        const events = expectSuccess(
          await ctx.as(viewer).get('/events', { queue_id: queues.get(viewer), last_event_id: -1, dont_block: true }),
        ).events;
        for (const target of targets) {
          const label = `${viewer} reading visibility ${target.visibility}`;
          const fetched = expectSuccess(await ctx.as(viewer).get(`/messages/${sent.get(target.id)}`)).message;
          const event = events.find((e: { message: { id: number } }) => e.message.id === sent.get(target.id));
          for (const [where, message] of [['GET /messages/{id}', fetched], ['message event', event.message]] as const) {
            assert.equal(message.sender_email, apiEmail(target), `${where}, ${label}`);
            assert.equal(message.avatar_url, gravatarUrl(apiEmail(target), 1), `${where}, ${label}`);
            const person = message.display_recipient.find((p: { id: number }) => p.id === target.id);
            assert.deepEqual(person, { id: target.id, email: apiEmail(target), full_name: `Visibility ${target.visibility}`, is_mirror_dummy: false });
            assertNoTrace(message, viewer, target, where);
          }
        }
      }

      const [, hidden] = targets;
      ctx.clearEvents();
      expectSuccess(await hidden!.client.post('/typing', { op: 'start', to: JSON.stringify([ctx.seed.users.mark.id]) }));
      expectSuccess(await hidden!.client.post(`/messages/${sent.get(hidden!.id)}/reactions`, { emoji_name: 'octopus' }));
      const typing = ctx.events.find((d) => d.event.type === 'typing')!.event;
      assert.deepEqual(typing.sender, { user_id: hidden!.id, email: hidden!.placeholder });
      const reaction = ctx.events.find((d) => d.event.type === 'reaction')!.event as Record<string, any>;
      assert.equal(reaction.user.email, hidden!.placeholder);
      for (const { event } of ctx.events) assertNoTrace(event, 'mark', hidden!, `${event.type} event`);
    });

    /** The status and the whole body, with the address itself replaced, so two answers can be compared. */
    const answer = (res: ApiResponse, address: string) => ({
      status: res.status,
      body: JSON.parse(JSON.stringify(res.body).replaceAll(address, 'ADDRESS')),
    });

    it('answers a lookup by a hidden real address exactly as one by an unknown address', async () => {
      const unknown = 'nobody-here@example.org';
      const lookups: Array<[string, (who: ApiClient, address: string) => Promise<ApiResponse>]> = [
        ['GET /users/{email}', (who, address) => who.get(`/users/${encodeURIComponent(address)}`)],
        [
          'sender narrow',
          (who, address) =>
            who.get('/messages', { narrow: JSON.stringify([{ operator: 'sender', operand: address }]), anchor: 'newest', num_before: 5, num_after: 0 }),
        ],
        ['dm narrow', (who, address) => who.get('/messages', { narrow: JSON.stringify([['dm', address]]), anchor: 'newest', num_before: 5, num_after: 0 })],
        ['direct message', (who, address) => who.post('/messages', { type: 'private', to: JSON.stringify([address]), content: 'hi' })],
      ];
      // The unknown address's answers, once, with their exact texts.
      const mark = ctx.as('mark');
      expectError(await lookups[0]![1](mark, unknown), 'No such user');
      expectError(await lookups[1]![1](mark, unknown), `Invalid narrow operator: unknown user ${unknown}`, 'BAD_NARROW');
      expectError(await lookups[2]![1](mark, unknown), `Invalid narrow operator: unknown user in ${unknown}`, 'BAD_NARROW');
      expectError(await lookups[3]![1](mark, unknown), `Invalid email '${unknown}'`);
      for (const viewer of VIEWERS) {
        const who = ctx.as(viewer);
        for (const target of targets) {
          for (const [name, lookup] of lookups) {
            const label = `${name}: ${viewer} looking up visibility ${target.visibility}`;
            const byReal = await lookup(who, target.real);
            if (mayKnow(viewer, target)) {
              expectSuccess(byReal);
              if (name === 'GET /users/{email}') assert.equal(byReal.body.user.user_id, target.id, label);
            } else {
              assert.deepEqual(answer(byReal, target.real), answer(await lookup(who, unknown), unknown), label);
            }
            // The placeholder form names the user for everyone, whatever the setting.
            const byPlaceholder = expectSuccess(await lookup(who, target.placeholder.toUpperCase()));
            if (name === 'GET /users/{email}') assert.equal(byPlaceholder.user.user_id, target.id, label);
          }
        }
      }
    });

    it('finds bots by their real address whatever their settings say', async () => {
      const bot = ctx.seed.users.welcomeBot;
      await ctx.services.db.updateTable('user_profile').set({ settings: JSON.stringify({ email_address_visibility: 4 }) }).where('id', '=', bot.id).execute();
      const seen = expectSuccess(await ctx.as('gus').get(`/users/${bot.delivery_email}`, { client_gravatar: false })).user;
      assert.deepEqual(pick(seen), { email: bot.delivery_email, delivery_email: bot.delivery_email, avatar_url: gravatarUrl(bot.delivery_email, 1) });
    });

    it('refuses accounts whose address takes the placeholder form', async () => {
      const params = { email: 'user4242@confab.test', password: 'long enough password', full_name: 'Pretender' };
      expectError(await ctx.as('olivia').post('/users', params), "Invalid email 'user4242@confab.test'");
      expectSuccess(await ctx.as('olivia').post('/users', { ...params, email: 'user4242@elsewhere.example' }));
      expectError(await ctx.as('mark').patch('/settings', { email: 'User4242@confab.test' }), 'Invalid address.');
    });

    it('folds the creation of a hidden user and a message from them into each watcher\'s state', async () => {
      expectSuccess(await ctx.as('adam').patch('/realm/user_settings_defaults', { email_address_visibility: 3 }));
      try {
        const watchers: DevUserName[] = ['mark', 'adam', 'gus'];
        await verifyFolding(ctx, {
          watchers,
          action: async () => {
            const { user_id: id } = expectSuccess(
              await ctx.as('olivia').post('/users', { email: 'folded@example.org', password: 'long enough password', full_name: 'Folded In' }),
            );
            const row = await ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
            const client = new ApiClient(ctx.app, ApiClient.basic('folded@example.org', row.api_key));
            const to = watchers.map((w) => ctx.seed.users[w].id);
            expectSuccess(await client.post('/messages', { type: 'private', to: JSON.stringify(to), content: 'hi all' }));
          },
        });
        const adds = ctx.events.filter((d) => d.event.type === 'realm_user' && d.event.op === 'add');
        const forMark = adds.find((d) => d.users.includes(ctx.seed.users.mark.id))!.event.person as Record<string, any>;
        const forAdam = adds.find((d) => d.users.includes(ctx.seed.users.adam.id))!.event.person as Record<string, any>;
        assert.equal(forMark.delivery_email, null);
        assert.equal(forAdam.delivery_email, 'folded@example.org');
        assert.equal(forMark.email, forAdam.email);
        assert.match(forMark.email, /^user\d+@confab\.test$/);
      } finally {
        expectSuccess(await ctx.as('adam').patch('/realm/user_settings_defaults', { email_address_visibility: 1 }));
      }
    });

    it('gives existing hidden addresses the placeholder when migrating', async () => {
      const { mona, milo, welcomeBot } = ctx.seed.users;
      const hidden = JSON.stringify({ email_address_visibility: 2 });
      await ctx.services.db.updateTable('user_profile').set({ settings: hidden }).where('id', 'in', [mona.id, welcomeBot.id]).execute();
      await hidePrivateAddresses(ctx.services.db);
      const rows = await ctx.services.db
        .selectFrom('user_profile')
        .select(['id', 'email', 'delivery_email'])
        .where('id', 'in', [mona.id, milo.id, welcomeBot.id])
        .execute();
      const emailOf = new Map(rows.map((r) => [r.id, [r.email, r.delivery_email]]));
      assert.deepEqual(emailOf.get(mona.id), [`user${mona.id}@confab.test`, mona.delivery_email]);
      assert.deepEqual(emailOf.get(milo.id), [milo.email, milo.delivery_email]);
      assert.deepEqual(emailOf.get(welcomeBot.id), [welcomeBot.email, welcomeBot.delivery_email]);
      const seen = expectSuccess(await ctx.as('gus').get(`/users/${mona.id}`)).user;
      assert.deepEqual([seen.email, seen.delivery_email], [`user${mona.id}@confab.test`, null]);
    });
  });
}
