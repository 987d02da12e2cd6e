import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import type { Delivery } from '../../src/events/bus.js';
import { clientFor, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const subscribeTo = (...names: string[]) => ({ subscriptions: names.map((name) => ({ name })) });

for (const dialect of testDialects()) {
  describe(`POST /users/me/subscriptions [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const db = () => ctx.services.db;
    const streamNamed = (name: string) => db().selectFrom('stream').selectAll().where('name', '=', name).executeTakeFirst();
    const eventsOf = (type: string, op: string): Delivery[] => ctx.events.filter((d) => d.event.type === type && d.event.op === op);
    const membersOf = async (streamId: number) => expectSuccess(await ctx.as('olivia').get(`/streams/${streamId}/members`)).subscribers;
    const groupId = async (name: string) =>
      (await db().selectFrom('user_group').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const activeIds = async () =>
      (await db().selectFrom('user_profile').select('id').where('is_active', '=', 1).orderBy('id').execute()).map((r) => r.id);

    it('subscribes the requester to an existing public stream and tells everyone who can see it', async () => {
      const { mona, gus } = ctx.seed.users;
      const { engineering } = ctx.seed.streams;
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('mona').post('/users/me/subscriptions', subscribeTo('engineering')));
      assert.deepEqual(body.subscribed, { 'mona@confab.test': ['engineering'] });
      assert.deepEqual(body.already_subscribed, {});
      assert.equal('unauthorized' in body, false);
      assert.equal((await membersOf(engineering.id)).includes(mona.id), true);

      const [add] = eventsOf('subscription', 'add');
      assert.deepEqual(add!.users, [mona.id]);
      const subs = add!.event.subscriptions as any[];
      assert.equal(subs.length, 1);
      assert.equal(subs[0].stream_id, engineering.id);
      assert.equal(subs[0].name, 'engineering');
      assert.equal(subs[0].in_home_view, true);
      assert.deepEqual(subs[0].subscribers, await membersOf(engineering.id));

      const [peer] = eventsOf('subscription', 'peer_add');
      assert.deepEqual(peer!.event, { type: 'subscription', op: 'peer_add', stream_ids: [engineering.id], user_ids: [mona.id] });
      // Every active user but Mona herself and the guest, who cannot see the stream.
      assert.deepEqual(
        [...peer!.users].sort((a, b) => a - b),
        (await activeIds()).filter((id) => id !== mona.id && id !== gus.id),
      );
      assert.deepEqual(eventsOf('stream', 'create'), []);
    });

    it('reports streams the user is already on', async () => {
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('mona').post('/users/me/subscriptions', subscribeTo('engineering', 'general')));
      assert.deepEqual(body.subscribed, {});
      assert.deepEqual(body.already_subscribed, { 'mona@confab.test': ['engineering', 'general'] });
      assert.deepEqual(ctx.events, []);
    });

    it('creates a missing public stream with the requested settings', async () => {
      const { mark, gus } = ctx.seed.users;
      ctx.clearEvents();
      const body = expectSuccess(
        await ctx.as('mark').post('/users/me/subscriptions', {
          subscriptions: [{ name: '  releases ', description: 'Ship\nit', color: '#123456' }],
          stream_post_policy: 2,
          announce: true,
        }),
      );
      assert.deepEqual(body.subscribed, { 'mark@confab.test': ['releases'] });
      const stream = (await streamNamed('releases'))!;
      assert.equal(stream.description, 'Ship it');
      assert.equal(stream.creator_id, mark.id);
      assert.equal(stream.invite_only, 0);
      assert.equal(stream.history_public_to_subscribers, 1);
      assert.equal(stream.stream_post_policy, 2);
      assert.equal(stream.can_remove_subscribers_group_id, await groupId('role:administrators'));
      assert.equal(stream.date_created, ctx.clock.now());

      const [create] = eventsOf('stream', 'create');
      const dict = (create!.event.streams as any[])[0];
      assert.equal(dict.name, 'releases');
      assert.equal(dict.is_announcement_only, true);
      assert.deepEqual([...create!.users].sort((a, b) => a - b), (await activeIds()).filter((id) => id !== gus.id));
      const [add] = eventsOf('subscription', 'add');
      assert.equal((add!.event.subscriptions as any[])[0].color, '#123456');
      assert.deepEqual((add!.event.subscriptions as any[])[0].subscribers, [mark.id]);
    });

    it('creates a private stream, hiding history unless asked, and shows it only to administrators', async () => {
      const { mark, olivia, adam } = ctx.seed.users;
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { ...subscribeTo('secret'), invite_only: true }));
      const secret = (await streamNamed('secret'))!;
      assert.equal(secret.invite_only, 1);
      assert.equal(secret.history_public_to_subscribers, 0);
      const creates = eventsOf('stream', 'create');
      // Administrators learn of it on creation; Mark when he is subscribed.
      assert.deepEqual([...creates[0]!.users].sort((a, b) => a - b), [olivia.id, adam.id].sort((a, b) => a - b));
      assert.deepEqual(creates[1]!.users, [mark.id]);
      // Peers of a private stream are its subscribers and the administrators.
      assert.deepEqual(eventsOf('subscription', 'peer_add')[0]!.users.sort((a, b) => a - b), [olivia.id, adam.id].sort((a, b) => a - b));

      expectSuccess(
        await ctx.as('mark').post('/users/me/subscriptions', {
          ...subscribeTo('secret-shared'),
          invite_only: true,
          history_public_to_subscribers: true,
        }),
      );
      assert.equal((await streamNamed('secret-shared'))!.history_public_to_subscribers, 1);
      // Public streams always share their history.
      expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { ...subscribeTo('open-book'), history_public_to_subscribers: false }));
      assert.equal((await streamNamed('open-book'))!.history_public_to_subscribers, 1);
    });

    it('subscribes other users by email or id, keyed by email in the answer', async () => {
      const { mona, milo, gus } = ctx.seed.users;
      ctx.clearEvents();
      const body = expectSuccess(
        await ctx.as('mark').post('/users/me/subscriptions', { ...subscribeTo('secret'), principals: ['mona@confab.test', 'GUS@confab.test'] }),
      );
      assert.deepEqual(body.subscribed, { 'mona@confab.test': ['secret'], 'gus@confab.test': ['secret'] });
      const secret = (await streamNamed('secret'))!;
      // Newly able to see the private stream, they are told it exists.
      assert.deepEqual(eventsOf('stream', 'create')[0]!.users.sort((a, b) => a - b), [mona.id, gus.id].sort((a, b) => a - b));

      const byId = expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { ...subscribeTo('secret'), principals: [milo.id, mona.id] }));
      assert.deepEqual(byId.subscribed, { 'milo@confab.test': ['secret'] });
      assert.deepEqual(byId.already_subscribed, { 'mona@confab.test': ['secret'] });
      assert.equal((await membersOf(secret.id)).includes(milo.id), true);
    });

    it('tells a guest subscribed to a public stream that the stream exists', async () => {
      const { gus } = ctx.seed.users;
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').post('/users/me/subscriptions', { ...subscribeTo('engineering'), principals: [gus.id] }));
      const [create] = eventsOf('stream', 'create');
      assert.deepEqual(create!.users, [gus.id]);
    });

    it('refuses private streams the requester is not on, or lists them when errors are not fatal', async () => {
      const { mark, mona } = ctx.seed.users;
      expectError(await ctx.as('mark').post('/users/me/subscriptions', subscribeTo('leadership')), 'Unable to access channel (leadership).');
      // Administrators are no exception.
      await db().updateTable('user_profile').set({ role: 200 }).where('id', '=', mona.id).execute();
      expectError(await ctx.as('mona').post('/users/me/subscriptions', subscribeTo('leadership')), 'Unable to access channel (leadership).');
      await db().updateTable('user_profile').set({ role: 400 }).where('id', '=', mona.id).execute();

      const body = expectSuccess(
        await ctx.as('mark').post('/users/me/subscriptions', { ...subscribeTo('leadership', 'design'), authorization_errors_fatal: false }),
      );
      assert.deepEqual(body, {
        result: 'success',
        msg: '',
        subscribed: { 'mark@confab.test': ['design'] },
        already_subscribed: {},
        unauthorized: ['leadership'],
      });
      assert.equal((await membersOf(ctx.seed.streams.leadership.id)).includes(mark.id), false);
    });

    it('changes nothing when any part of the request fails', async () => {
      expectError(await ctx.as('milo').post('/users/me/subscriptions', subscribeTo('brand-new', 'leadership')), 'Unable to access channel (leadership).');
      assert.equal(await streamNamed('brand-new'), undefined);
    });

    it('is not for guests', async () => {
      expectError(await ctx.as('gus').post('/users/me/subscriptions', subscribeTo('general')), 'Not allowed for guest users');
    });

    it('checks the principals', async () => {
      const post = (principals: unknown) => ctx.as('mark').post('/users/me/subscriptions', { ...subscribeTo('general'), principals });
      expectError(await post(['nobody@confab.test']), 'No such user');
      expectError(await post([99999]), 'No such user');
      await db().updateTable('user_profile').set({ is_active: 0 }).where('id', '=', ctx.seed.users.milo.id).execute();
      expectError(await post([ctx.seed.users.milo.id]), 'User is deactivated');
      await db().updateTable('user_profile').set({ is_active: 1 }).where('id', '=', ctx.seed.users.milo.id).execute();
      expectError(await post([2 ** 40]), 'No such user');
      expectError(await post(['mo\u0000na@confab.test']), 'No such user');
      expectError(await post(['mona@confab.test', 3]), 'principals is not an allowed_type');
      expectError(await post({ a: 1 }), 'principals is not an allowed_type');
    });

    it('checks the subscriptions list', async () => {
      const post = (subscriptions: unknown) => ctx.as('mark').post('/users/me/subscriptions', { subscriptions });
      expectError(await post('[nope'), 'subscriptions is not valid JSON');
      expectError(await post({ name: 'x' }), 'subscriptions is not a list');
      expectError(await post(['x']), 'subscriptions[0] is not a dict');
      expectError(await post([{ description: 'x' }]), 'name key is missing from subscriptions[0]');
      expectError(await post([{ name: 5 }]), 'subscriptions[0]["name"] is not a string');
      expectError(await post([{ name: 'x', color: 'red' }]), 'subscriptions[0]["color"] is not a valid hex color code');
      expectError(await post([{ name: 'x', description: 'd'.repeat(1025) }]), 'subscriptions[0]["description"] is too long (limit: 1024 characters)');
      expectError(await post([{ name: 'x', colour: '#fff' }]), 'Unexpected arguments: colour');
      expectError(await post([{ name: '   ' }]), "Channel name can't be empty.");
      expectError(await post([{ name: 'n'.repeat(61) }]), 'Channel name too long (limit: 60 characters).');
      expectError(await post([{ name: 'bad\u0007name' }]), 'Invalid character in channel name, at position 4.');
      expectError(await post([{ name: 'nul', description: 'a\u0000b' }]), 'Invalid character in channel description, at position 2.');
      expectError(await ctx.as('mark').post('/users/me/subscriptions', {}), "Missing 'subscriptions' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('treats the same name twice, in any case, as one stream', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', subscribeTo('Twice', 'twice')));
      assert.deepEqual(body.subscribed, { 'mark@confab.test': ['Twice'] });
      const again = expectSuccess(await ctx.as('mona').post('/users/me/subscriptions', subscribeTo('TWICE')));
      assert.deepEqual(again.subscribed, { 'mona@confab.test': ['Twice'] });
    });

    it('makes default streams for administrators only, and never private ones', async () => {
      expectError(
        await ctx.as('mark').post('/users/me/subscriptions', { ...subscribeTo('defaulted'), is_default_stream: true }),
        'Insufficient permission',
      );
      expectError(
        await ctx.as('adam').post('/users/me/subscriptions', { ...subscribeTo('defaulted'), is_default_stream: true, invite_only: true }),
        'A default channel cannot be private.',
      );
      expectSuccess(await ctx.as('adam').post('/users/me/subscriptions', { ...subscribeTo('defaulted'), is_default_stream: true }));
      const stream = (await streamNamed('defaulted'))!;
      const row = await db().selectFrom('default_stream').selectAll().where('stream_id', '=', stream.id).executeTakeFirst();
      assert.notEqual(row, undefined);
      // Only streams created by the request become default.
      expectSuccess(await ctx.as('adam').post('/users/me/subscriptions', { ...subscribeTo('design'), is_default_stream: true }));
      const design = await db().selectFrom('default_stream').selectAll().where('stream_id', '=', ctx.seed.streams.design.id).executeTakeFirst();
      assert.equal(design, undefined);
    });

    it('creates web-public streams only where the server, the realm and the policy allow it', async () => {
      const create = (who: 'olivia' | 'adam', name: string) =>
        ctx.as(who).post('/users/me/subscriptions', { ...subscribeTo(name), is_web_public: true });
      expectError(await create('olivia', 'on-the-web'), 'Web-public channels are not enabled.');
      ctx.services.config.webPublicStreamsEnabled = true;
      try {
        expectError(await create('olivia', 'on-the-web'), 'Web-public channels are not enabled.');
        const server = async () => expectSuccess(await ctx.anonymous().get('/server_settings')).realm_web_public_access_enabled;
        assert.equal(await server(), false);
        await db().updateTable('realm').set({ settings: JSON.stringify({ enable_spectator_access: true }) }).execute();
        assert.equal(await server(), true);
        const registered = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: JSON.stringify(['realm']) }));
        assert.equal(registered.server_web_public_streams_enabled, true);
        // Owners only, by the era's default create_web_public_stream_policy.
        expectError(await create('adam', 'on-the-web'), 'Insufficient permission');
        expectSuccess(await create('olivia', 'on-the-web'));
        const row = await db().selectFrom('stream').select('is_web_public').where('name', '=', 'on-the-web').executeTakeFirstOrThrow();
        assert.equal(row.is_web_public, 1);
      } finally {
        ctx.services.config.webPublicStreamsEnabled = false;
        await db().updateTable('realm').set({ settings: '{}' }).execute();
      }
    });

    it('lets only owners choose a retention period', async () => {
      expectError(
        await ctx.as('adam').post('/users/me/subscriptions', { ...subscribeTo('kept'), message_retention_days: 30 }),
        'Must be an organization owner',
        'UNAUTHORIZED_PRINCIPAL',
      );
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { ...subscribeTo('kept'), message_retention_days: 30 }));
      assert.equal((await streamNamed('kept'))!.message_retention_days, 30);
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { ...subscribeTo('forever'), message_retention_days: '"unlimited"' }));
      assert.equal((await streamNamed('forever'))!.message_retention_days, -1);
      expectSuccess(await ctx.as('adam').post('/users/me/subscriptions', { ...subscribeTo('realm-kept'), message_retention_days: 'realm_default' }));
      assert.equal((await streamNamed('realm-kept'))!.message_retention_days, null);
      const bad = expectError(
        await ctx.as('olivia').post('/users/me/subscriptions', { ...subscribeTo('never'), message_retention_days: -3 }),
        "Bad value for 'message_retention_days': -3",
        'REQUEST_VARIABLE_INVALID',
      );
      assert.equal(bad.var_name, 'message_retention_days');
      expectError(
        await ctx.as('olivia').post('/users/me/subscriptions', { ...subscribeTo('never'), message_retention_days: 'sometimes' }),
        "Bad value for 'message_retention_days': sometimes",
        'REQUEST_VARIABLE_INVALID',
      );
      // Beyond what the stores' integer column holds.
      expectError(
        await ctx.as('olivia').post('/users/me/subscriptions', { ...subscribeTo('never'), message_retention_days: 3_000_000_000 }),
        "Bad value for 'message_retention_days': 3000000000",
        'REQUEST_VARIABLE_INVALID',
      );
    });

    it('checks stream_post_policy', async () => {
      expectError(await ctx.as('mark').post('/users/me/subscriptions', { ...subscribeTo('x1'), stream_post_policy: 7 }), 'Invalid stream_post_policy');
    });

    it('accepts system groups other than internet and owners for can_remove_subscribers_group', async () => {
      const post = (name: string, group: number) =>
        ctx.as('adam').post('/users/me/subscriptions', { ...subscribeTo(name), can_remove_subscribers_group: group });
      expectSuccess(await post('moderated', await groupId('role:moderators')));
      assert.equal((await streamNamed('moderated'))!.can_remove_subscribers_group_id, await groupId('role:moderators'));
      expectError(await post('g1', 99999), 'Invalid user group');
      expectError(await post('g1', 2 ** 40), 'Invalid user group');
      expectError(await post('g1', await groupId('role:owners')), "'can_remove_subscribers_group' setting cannot be set to 'role:owners' group.");
      expectError(await post('g1', await groupId('role:internet')), "'can_remove_subscribers_group' setting cannot be set to 'role:internet' group.");
      const { id } = await db()
        .insertInto('user_group')
        .values({ realm_id: ctx.seed.realm.id, name: 'designers', description: '', is_system_group: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      expectError(await post('g1', id), "'can_remove_subscribers_group' must be a system user group.");
      assert.equal(await streamNamed('g1'), undefined);
    });

    it('keeps the colour of a subscription that comes back', async () => {
      const { mona } = ctx.seed.users;
      const recipientId = ctx.seed.streams.general.recipient_id!;
      const before = await db().selectFrom('subscription').select('color').where('user_id', '=', mona.id).where('recipient_id', '=', recipientId).executeTakeFirstOrThrow();
      expectSuccess(await ctx.as('mona').delete('/users/me/subscriptions', { subscriptions: ['general'] }));
      expectSuccess(await ctx.as('mona').post('/users/me/subscriptions', subscribeTo('general')));
      const after = await db().selectFrom('subscription').select(['color', 'active']).where('user_id', '=', mona.id).where('recipient_id', '=', recipientId).executeTakeFirstOrThrow();
      assert.deepEqual(after, { color: before.color, active: 1 });
    });

    it('lets bots subscribe themselves', async () => {
      const bot = await runSystemAction(ctx.services, (sys) =>
        doCreateUser(sys, ctx.seed.realm, { email: 'sub-bot@confab.test', fullName: 'Sub Bot', isBot: true, botOwnerId: ctx.seed.users.mark.id }),
      );
      const body = expectSuccess(await clientFor(ctx.app, bot).post('/users/me/subscriptions', subscribeTo('design')));
      assert.deepEqual(body.subscribed, { 'sub-bot@confab.test': ['design'] });
    });
  });
}
