import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateStream, type NewStreamSpec } from '../../src/actions/stream-create.js';
import { bulkAddSubscriptions } from '../../src/actions/subscriptions.js';
import type { StreamRow } from '../../src/db/schema.js';
import type { DevUserName } from '../../src/dev-seed.js';
import type { Delivery } from '../../src/events/bus.js';
import { renderMarkdown } from '../../src/lib/markdown/index.js';
import { streamDict } from '../../src/lib/stream-format.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /streams/{stream_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    let counter = 0;
    const db = () => ctx.services.db;
    const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);
    const idsOf = (...names: DevUserName[]) => sorted(names.map((n) => ctx.seed.users[n].id));
    const eventsOf = (type: string, op?: string): Delivery[] =>
      ctx.events.filter((d) => d.event.type === type && (op === undefined || d.event.op === op));
    const row = (id: number) => db().selectFrom('stream').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const groupId = async (name: string) =>
      (await db().selectFrom('user_group').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const patch = (who: DevUserName, stream: { id: number }, params: Record<string, unknown>) =>
      ctx.as(who).patch(`/streams/${stream.id}`, params);

    /** A new stream with the given subscribers. */
    async function makeStream(spec: Partial<NewStreamSpec>, subscribers: DevUserName[]): Promise<StreamRow> {
      return runSystemAction(ctx.services, async (sys) => {
        const stream = await doCreateStream(sys, ctx.seed.realm, { name: `stream ${++counter}`, ...spec });
        await bulkAddSubscriptions(sys, ctx.seed.realm, [stream], subscribers.map((n) => ctx.seed.users[n]));
        return stream;
      });
    }

    const EVERYONE_BUT_GUEST: DevUserName[] = ['olivia', 'adam', 'maya', 'mark', 'mona', 'milo', 'welcomeBot'];
    const notificationBot = async () => (await db().selectFrom('realm').select('notification_bot_id').executeTakeFirstOrThrow()).notification_bot_id!;
    /** Non-guest active users, the notification bot included. */
    const nonGuests = async () => sorted([...idsOf(...EVERYONE_BUT_GUEST), await notificationBot()]);

    it('refuses unknown streams and non-administrators', async () => {
      expectError(await ctx.as('olivia').patch('/streams/99999', { description: 'x' }), 'Invalid channel ID');
      const { engineering, leadership } = ctx.seed.streams;
      expectError(await patch('mark', engineering, { description: 'x' }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await patch('maya', engineering, { description: 'x' }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      // A private stream the member is not on does not exist for them.
      expectError(await patch('mark', leadership, { description: 'x' }), 'Invalid channel ID');
      const secret = await makeStream({ inviteOnly: true }, ['mark']);
      expectError(await patch('mark', secret, { description: 'x' }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await patch('gus', engineering, { new_name: 'x' }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    });

    it('renames a stream and tells everyone who can see it', async () => {
      const stream = await makeStream({}, ['mark']);
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { new_name: '  Roadmap  ' }));
      assert.equal((await row(stream.id)).name, 'Roadmap');
      assert.equal(ctx.events.length, 1);
      assert.deepEqual(ctx.events[0]!.event, {
        type: 'stream', op: 'update', property: 'name', value: 'Roadmap', stream_id: stream.id, name: stream.name,
      });
      assert.deepEqual(sorted(ctx.events[0]!.users), await nonGuests());
      // A change of case alone is allowed.
      expectSuccess(await patch('adam', stream, { new_name: 'roadmap' }));
      assert.equal(expectSuccess(await ctx.as('mark').get(`/streams/${stream.id}`)).stream.name, 'roadmap');
    });

    it('checks new names', async () => {
      const stream = await makeStream({}, []);
      expectError(await patch('adam', stream, { new_name: stream.name }), 'Channel already has that name.');
      expectError(await patch('adam', stream, { new_name: 'DESIGN' }), "Channel 'DESIGN' already exists");
      expectError(await patch('adam', stream, { new_name: '   ' }), "Channel name can't be empty.");
      expectError(await patch('adam', stream, { new_name: 'x'.repeat(61) }), 'Channel name too long (limit: 60 characters).');
      expectError(await patch('adam', stream, { new_name: 'a\u0001b' }), 'Invalid character in channel name, at position 2.');
      expectSuccess(await patch('adam', stream, { new_name: 'y'.repeat(60) }));
    });

    it('changes the description, rendered, on one line', async () => {
      const stream = await makeStream({}, []);
      ctx.clearEvents();
      expectSuccess(await patch('olivia', stream, { description: 'Plans for **next**\nyear' }));
      const rendered = renderMarkdown('Plans for **next** year').html;
      const saved = await row(stream.id);
      assert.deepEqual([saved.description, saved.rendered_description], ['Plans for **next** year', rendered]);
      assert.deepEqual(ctx.events.map((d) => d.event), [{
        type: 'stream', op: 'update', property: 'description', value: 'Plans for **next** year',
        rendered_description: rendered, stream_id: stream.id, name: stream.name,
      }]);
      // The same description again changes nothing.
      ctx.clearEvents();
      expectSuccess(await patch('olivia', stream, { description: 'Plans for **next** year' }));
      assert.deepEqual(ctx.events, []);
      expectError(await patch('olivia', stream, { description: 'd'.repeat(1025) }), 'description is too long (limit: 1024 characters)');
      expectError(await patch('olivia', stream, { description: 'nul\u0000here' }), 'Invalid character in channel description, at position 4.');
      expectSuccess(await patch('olivia', stream, { description: 'd'.repeat(1024) }));
      expectSuccess(await patch('olivia', stream, { description: '' }));
      assert.deepEqual([(await row(stream.id)).description, (await row(stream.id)).rendered_description], ['', '']);
    });

    it('administrators rename and describe private streams they are not on, but change no permissions there', async () => {
      const secret = await makeStream({ inviteOnly: true }, ['mark']);
      expectSuccess(await patch('adam', secret, { new_name: 'hidden plans', description: 'shh' }));
      const group = await groupId('role:moderators');
      for (const params of [{ is_private: false }, { history_public_to_subscribers: true }, { can_remove_subscribers_group: group }]) {
        expectError(await patch('adam', secret, params), 'Invalid channel ID');
      }
      assert.deepEqual([(await row(secret.id)).name, (await row(secret.id)).description], ['hidden plans', 'shh']);
    });

    it('makes a public stream private: subscribers and administrators keep it, everyone else loses it', async () => {
      const stream = await makeStream({}, ['adam', 'mark', 'gus']);
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { is_private: true }));
      const saved = await row(stream.id);
      // History is hidden unless asked otherwise.
      assert.deepEqual([saved.invite_only, saved.history_public_to_subscribers], [1, 0]);
      const [update] = eventsOf('stream', 'update');
      assert.deepEqual(update!.event, {
        type: 'stream', op: 'update', property: 'invite_only', value: true,
        history_public_to_subscribers: false, is_web_public: false, stream_id: stream.id, name: stream.name,
      });
      assert.deepEqual(sorted(update!.users), idsOf('olivia', 'adam', 'mark', 'gus'));
      const [gone] = eventsOf('stream', 'delete');
      // The whole stream, as it now is, at feature level 229.
      assert.deepEqual(gone!.event, { type: 'stream', op: 'delete', streams: [streamDict(saved)], stream_ids: [stream.id] });
      assert.deepEqual(sorted(gone!.users), (await nonGuests()).filter((id) => !idsOf('olivia', 'adam', 'mark').includes(id)));
      assert.deepEqual(eventsOf('stream', 'create'), []);
      expectError(await ctx.as('mona').get(`/streams/${stream.id}`), 'Invalid channel ID');
    });

    it('makes a private stream public: newcomers get the stream and its subscribers', async () => {
      const stream = await makeStream({ inviteOnly: true, historyPublicToSubscribers: false }, ['adam', 'mark']);
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { is_private: false }));
      assert.equal((await row(stream.id)).history_public_to_subscribers, 1);
      const newcomers = (await nonGuests()).filter((id) => !idsOf('olivia', 'adam', 'mark').includes(id));
      const [create] = eventsOf('stream', 'create');
      assert.equal((create!.event.streams as Array<Record<string, unknown>>)[0]!.invite_only, false);
      assert.deepEqual(sorted(create!.users), newcomers);
      const [peer] = eventsOf('subscription', 'peer_add');
      assert.deepEqual(peer!.event, { type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: idsOf('adam', 'mark') });
      assert.deepEqual(sorted(peer!.users), newcomers);
      const [update] = eventsOf('stream', 'update');
      assert.equal(update!.event.history_public_to_subscribers, true);
      assert.deepEqual(sorted(update!.users), await nonGuests());
      assert.deepEqual(eventsOf('stream', 'delete'), []);
      expectSuccess(await ctx.as('mona').get(`/streams/${stream.id}`));
    });

    it('changes history visibility of a private stream only', async () => {
      const stream = await makeStream({ inviteOnly: true }, ['adam']);
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { history_public_to_subscribers: true }));
      assert.equal((await row(stream.id)).history_public_to_subscribers, 1);
      assert.deepEqual(eventsOf('stream', 'update').map((d) => [d.event.property, d.event.value, d.event.history_public_to_subscribers]), [
        ['invite_only', true, true],
      ]);
      // Nothing changes, nothing is sent.
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { history_public_to_subscribers: true, is_private: true }));
      assert.deepEqual(ctx.events, []);
      const open = await makeStream({}, []);
      expectError(await patch('adam', open, { history_public_to_subscribers: false }), 'Invalid parameters');
      expectError(await patch('adam', stream, { is_private: false, history_public_to_subscribers: false }), 'Invalid parameters');
    });

    it('keeps default streams public', async () => {
      const stream = await makeStream({ isDefault: true }, ['adam']);
      expectError(await patch('adam', stream, { is_private: true }), 'A default channel cannot be private.');
      const other = await makeStream({}, ['adam']);
      expectError(await patch('adam', other, { is_private: true, is_default_stream: true }), 'A default channel cannot be private.');
      const secret = await makeStream({ inviteOnly: true }, ['adam']);
      expectError(await patch('adam', secret, { is_default_stream: true }), 'A default channel cannot be private.');
      // Leaving the default list and going private in one request works.
      expectSuccess(await patch('adam', stream, { is_private: true, is_default_stream: false }));
    });

    it('adds and removes default streams', async () => {
      const stream = await makeStream({}, []);
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { is_default_stream: true }));
      const defaults = sorted((await db().selectFrom('default_stream').select('stream_id').execute()).map((r) => r.stream_id));
      assert.ok(defaults.includes(stream.id));
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'default_streams', default_streams: defaults }]);
      assert.deepEqual(sorted(ctx.events[0]!.users), await nonGuests());
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { is_default_stream: true }));
      assert.deepEqual(ctx.events, []);
      expectSuccess(await patch('adam', stream, { is_default_stream: false }));
      assert.deepEqual(eventsOf('default_streams').map((d) => d.event.default_streams), [defaults.filter((id) => id !== stream.id)]);
    });

    it('sets the posting policy, also through is_announcement_only', async () => {
      const stream = await makeStream({}, ['mark']);
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { stream_post_policy: 4 }));
      assert.deepEqual(ctx.events.map((d) => [d.event.property, d.event.value]), [['stream_post_policy', 4], ['is_announcement_only', false]]);
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { is_announcement_only: true }));
      assert.deepEqual(ctx.events.map((d) => [d.event.property, d.event.value]), [['stream_post_policy', 2], ['is_announcement_only', true]]);
      expectSuccess(await patch('adam', stream, { is_announcement_only: false }));
      assert.equal((await row(stream.id)).stream_post_policy, 1);
      for (const bad of [0, 5]) expectError(await patch('adam', stream, { stream_post_policy: bad }), 'Invalid stream_post_policy');
      expectError(await patch('adam', stream, { stream_post_policy: 'x' }), 'stream_post_policy is not valid JSON');
    });

    it('enforces the posting policy when sending', async () => {
      const stream = await makeStream({}, ['adam', 'maya', 'mark', 'gus']);
      const send = (who: DevUserName) => ctx.as(who).post('/messages', { type: 'stream', to: stream.id, topic: 't', content: 'hi' });
      expectSuccess(await patch('adam', stream, { stream_post_policy: 2 }));
      expectError(await send('maya'), 'Only organization administrators can send to this channel.');
      expectSuccess(await send('adam'));
      expectSuccess(await patch('adam', stream, { stream_post_policy: 4 }));
      expectError(await send('mark'), 'Only organization administrators and moderators can send to this channel.');
      expectSuccess(await send('maya'));
      expectSuccess(await patch('adam', stream, { stream_post_policy: 3 }));
      expectError(await send('gus'), 'New members cannot send to this channel.');
      expectSuccess(await send('mark'));
      expectSuccess(await patch('adam', stream, { stream_post_policy: 1 }));
      expectSuccess(await send('gus'));
    });

    it('sets message retention (owners only)', async () => {
      const stream = await makeStream({}, []);
      expectError(await patch('adam', stream, { message_retention_days: 30 }), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      ctx.clearEvents();
      expectSuccess(await patch('olivia', stream, { message_retention_days: 30 }));
      assert.deepEqual(ctx.events.map((d) => d.event), [{
        type: 'stream', op: 'update', property: 'message_retention_days', value: 30, stream_id: stream.id, name: stream.name,
      }]);
      const cases: Array<[unknown, number | null]> = [['unlimited', -1], ['realm_default', null], ['forever', -1], ['"realm_default"', null], [7, 7]];
      for (const [value, stored] of cases) {
        expectSuccess(await patch('olivia', stream, { message_retention_days: value }));
        assert.equal((await row(stream.id)).message_retention_days, stored, String(value));
      }
      for (const bad of [0, -1, 'abc']) {
        const body = expectError(await patch('olivia', stream, { message_retention_days: bad }), `Bad value for 'message_retention_days': ${bad}`, 'REQUEST_VARIABLE_INVALID');
        assert.deepEqual([body.var_name, body.bad_value], ['message_retention_days', bad]);
      }
      expectError(await patch('olivia', stream, { message_retention_days: [1] }), 'message_retention_days is not a string or an integer');
    });

    it('sets can_remove_subscribers_group to system groups only', async () => {
      const stream = await makeStream({}, []);
      const moderators = await groupId('role:moderators');
      ctx.clearEvents();
      expectSuccess(await patch('adam', stream, { can_remove_subscribers_group: moderators }));
      assert.equal((await row(stream.id)).can_remove_subscribers_group_id, moderators);
      assert.deepEqual(ctx.events.map((d) => [d.event.property, d.event.value]), [['can_remove_subscribers_group', moderators]]);
      for (const name of ['role:internet', 'role:owners']) {
        expectError(
          await patch('adam', stream, { can_remove_subscribers_group: await groupId(name) }),
          `'can_remove_subscribers_group' setting cannot be set to '${name}' group.`,
        );
      }
      const { id: custom } = await db()
        .insertInto('user_group')
        .values({ realm_id: ctx.seed.realm.id, name: 'Reviewers', description: '', is_system_group: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      expectError(await patch('adam', stream, { can_remove_subscribers_group: custom }), "'can_remove_subscribers_group' must be a system user group.");
      expectError(await patch('adam', stream, { can_remove_subscribers_group: 99999 }), 'Invalid user group');
      expectError(await patch('adam', stream, { can_remove_subscribers_group: 2 ** 40 }), 'Invalid user group');
    });

    it('makes streams web-public only where the server, the realm and the policy allow it', async () => {
      const stream = await makeStream({}, ['olivia']);
      expectError(await patch('olivia', stream, { is_web_public: true }), 'Web-public channels are not enabled.');
      ctx.services.config.webPublicStreamsEnabled = true;
      try {
        expectError(await patch('olivia', stream, { is_web_public: true }), 'Web-public channels are not enabled.');
        await db().updateTable('realm').set({ settings: JSON.stringify({ enable_spectator_access: true }) }).execute();
        // The era's default policy: owners only.
        expectError(await patch('adam', stream, { is_web_public: true }), 'Insufficient permission');
        expectError(await patch('olivia', stream, { is_web_public: true, is_private: true }), 'Invalid parameters');
        ctx.clearEvents();
        expectSuccess(await patch('olivia', stream, { is_web_public: true }));
        const [update] = eventsOf('stream', 'update');
        assert.deepEqual(update!.event, {
          type: 'stream', op: 'update', property: 'invite_only', value: false,
          history_public_to_subscribers: true, is_web_public: true, stream_id: stream.id, name: stream.name,
        });
        // The guest can see it now.
        const [create] = eventsOf('stream', 'create');
        assert.deepEqual(create!.users, idsOf('gus'));
        expectSuccess(await ctx.as('gus').get(`/streams/${stream.id}`));
        // Turning it off again needs no permission beyond administering the stream.
        ctx.clearEvents();
        expectSuccess(await patch('adam', stream, { is_web_public: false }));
        assert.deepEqual(eventsOf('stream', 'delete')[0]!.users, idsOf('gus'));
      } finally {
        ctx.services.config.webPublicStreamsEnabled = false;
        await db().updateTable('realm').set({ settings: '{}' }).execute();
      }
    });

    it('changes several properties in one request, or none when one fails', async () => {
      const stream = await makeStream({}, []);
      expectError(await patch('adam', stream, { new_name: 'renamed together', message_retention_days: 3 }), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      assert.equal((await row(stream.id)).name, stream.name);
      ctx.clearEvents();
      expectSuccess(await patch('olivia', stream, { new_name: 'renamed together', description: 'both', stream_post_policy: 2 }));
      assert.deepEqual(ctx.events.map((d) => [d.event.property, d.event.name]), [
        ['description', stream.name],
        ['name', stream.name],
        ['stream_post_policy', 'renamed together'],
        ['is_announcement_only', 'renamed together'],
      ]);
      const body = expectSuccess(await patch('olivia', stream, { colour: 'red' }));
      assert.deepEqual(body.ignored_parameters_unsupported, ['colour']);
      expectError(await patch('olivia', stream, { is_private: 'maybe' }), 'is_private is not valid JSON');
      expectError(await patch('olivia', stream, { is_private: 1 }), 'is_private is not a boolean');
    });
  });
}
