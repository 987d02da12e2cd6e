import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { archivedStreamName } from '../../src/actions/stream-archive.js';
import { doCreateStream, type NewStreamSpec } from '../../src/actions/stream-create.js';
import { bulkAddSubscriptions } from '../../src/actions/subscriptions.js';
import type { StreamRow } from '../../src/db/schema.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { Role } from '../../src/lib/roles.js';
import { streamDict } from '../../src/lib/stream-format.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

describe('archivedStreamName', () => {
  it('prefixes seven hex digits of the SHA-512 of the id and cuts to 60 characters', () => {
    assert.equal(archivedStreamName(1, 'general'), '4dff4ea!DEACTIVATED:general');
    assert.equal(archivedStreamName(42, 'général'), '39ca7ce!DEACTIVATED:général');
    const long = archivedStreamName(1, 'é'.repeat(60));
    assert.equal([...long].length, 60);
    assert.equal(long, `4dff4ea!DEACTIVATED:${'é'.repeat(40)}`);
  });
});

for (const dialect of testDialects()) {
  describe(`DELETE /streams/{stream_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    let counter = 0;
    async function makeStream(spec: Partial<NewStreamSpec>, subscribers: DevUserName[]): Promise<StreamRow> {
      const stream = await runSystemAction(ctx.services, async (sys) => {
        const created = await doCreateStream(sys, ctx.seed.realm, { name: `archive me ${++counter}`, ...spec });
        await bulkAddSubscriptions(sys, ctx.seed.realm, [created], subscribers.map((n) => ctx.seed.users[n]));
        return created;
      });
      ctx.clearEvents();
      return stream;
    }

    const ids = (...names: DevUserName[]) => names.map((n) => ctx.seed.users[n].id).sort((a, b) => a - b);
    const sorted = (list: readonly number[]) => [...list].sort((a, b) => a - b);
    const streamRow = (id: number) => ctx.services.db.selectFrom('stream').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const activeSubscribers = async (stream: StreamRow) =>
      (
        await ctx.services.db
          .selectFrom('subscription')
          .select('user_id')
          .where('recipient_id', '=', stream.recipient_id!)
          .where('active', '=', 1)
          .execute()
      ).length;

    it('refuses non-administrators, unknown ids and streams already archived', async () => {
      const stream = await makeStream({}, ['mark']);
      for (const who of ['mark', 'maya', 'gus'] as const) {
        expectError(await ctx.as(who).delete(`/streams/${stream.id}`), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      }
      expectError(await ctx.as('adam').delete('/streams/99999'), 'Invalid channel ID');
      assert.equal((await streamRow(stream.id)).deactivated, 0);
      expectSuccess(await ctx.as('adam').delete(`/streams/${stream.id}`));
      ctx.clearEvents();
      expectError(await ctx.as('olivia').delete(`/streams/${stream.id}`), 'Channel is already deactivated');
      assert.deepEqual(ctx.events, []);
    });

    it('archives a public default stream: rows, events and their recipients', async () => {
      const stream = await makeStream({ isDefault: true, description: 'about *this*' }, ['mark', 'mona', 'gus']);
      const messageId = expectSuccess(
        await ctx.as('mark').post('/messages', { type: 'stream', to: stream.name, topic: 'kept', content: 'still here' }),
      ).id as number;
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').delete(`/streams/${stream.id}`));

      const row = await streamRow(stream.id);
      assert.deepEqual(
        { deactivated: row.deactivated, invite_only: row.invite_only, name: row.name },
        { deactivated: 1, invite_only: 1, name: archivedStreamName(stream.id, stream.name) },
      );
      assert.equal(await activeSubscribers(stream), 0);
      const defaults = await ctx.services.db.selectFrom('default_stream').select('stream_id').execute();
      assert.deepEqual(defaults.map((d) => d.stream_id), [ctx.seed.streams.general.id]);
      // The messages stay.
      const kept = await ctx.services.db.selectFrom('message').select(['id', 'content']).where('recipient_id', '=', stream.recipient_id!).execute();
      assert.deepEqual(kept, [{ id: messageId, content: 'still here' }]);

      const nonGuests = sorted(
        (await ctx.services.db.selectFrom('user_profile').select('id').where('is_active', '=', 1).where('role', '!=', Role.GUEST).execute()).map((u) => u.id),
      );
      assert.equal(nonGuests.includes(ctx.seed.users.gus.id), false);
      assert.deepEqual(
        ctx.events.map((d) => ({ event: d.event, users: sorted(d.users) })),
        [
          { event: { type: 'default_streams', default_streams: [ctx.seed.streams.general.id] }, users: nonGuests },
          {
            event: { type: 'subscription', op: 'remove', subscriptions: [{ name: stream.name, stream_id: stream.id }] },
            users: ids('mark', 'mona', 'gus'),
          },
          // Everyone who could see it: every non-guest, and the guest who was subscribed.
          // At feature level 229 the event carries the whole stream as it was before archiving.
          {
            event: { type: 'stream', op: 'delete', streams: [{ ...streamDict(stream), first_message_id: messageId }], stream_ids: [stream.id] },
            users: sorted([...nonGuests, ...ids('gus')]),
          },
        ],
      );
    });

    it('tells only subscribers and administrators about a private stream', async () => {
      const stream = await makeStream({ inviteOnly: true }, ['mark', 'adam']);
      expectSuccess(await ctx.as('olivia').delete(`/streams/${stream.id}`));
      assert.deepEqual(
        ctx.events.map((d) => ({ kind: `${d.event.type}/${d.event.op}`, users: sorted(d.users) })),
        [
          { kind: 'subscription/remove', users: ids('mark', 'adam') },
          { kind: 'stream/delete', users: ids('olivia', 'adam', 'mark') },
        ],
      );
      // Its name and privacy as they were, not the archived name and forced privacy.
      const deleted = ctx.events.find((d) => d.event.type === 'stream')!.event.streams as Array<Record<string, unknown>>;
      assert.deepEqual(deleted, [{ ...streamDict(stream), invite_only: true }]);
    });

    it('ends the subscriptions of deactivated accounts too, without telling them', async () => {
      const stream = await makeStream({}, ['mark', 'milo']);
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', ctx.seed.users.milo.id).execute();
      try {
        expectSuccess(await ctx.as('adam').delete(`/streams/${stream.id}`));
        assert.equal(await activeSubscribers(stream), 0);
        const removal = ctx.events.find((d) => d.event.type === 'subscription')!;
        assert.deepEqual(removal.users, ids('mark'));
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', ctx.seed.users.milo.id).execute();
      }
    });

    it('leaves the stream out of lists, sending and narrows afterwards, and frees its name', async () => {
      const stream = await makeStream({ isWebPublic: false }, ['mark', 'gus']);
      expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: stream.name, topic: 't', content: 'before' }));
      expectSuccess(await ctx.as('adam').delete(`/streams/${stream.id}`));
      const archived = archivedStreamName(stream.id, stream.name);

      const listed = expectSuccess(await ctx.as('adam').get('/streams', { include_all_active: true })).streams as Array<{ stream_id: number }>;
      assert.equal(listed.some((s) => s.stream_id === stream.id), false);
      assert.equal(listed.some((s) => s.stream_id === ctx.seed.streams.general.id), true);
      for (const who of ['mark', 'mona', 'adam', 'gus'] as const) {
        const state = expectSuccess(await ctx.as(who).post('/register', { fetch_event_types: ['subscription', 'stream'] }));
        for (const key of ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed']) {
          const list = (state[key] ?? []) as Array<{ stream_id: number }>;
          assert.equal(list.some((s) => s.stream_id === stream.id), false, `${who} ${key}`);
        }
      }
      const subs = expectSuccess(await ctx.as('mark').get('/users/me/subscriptions')).subscriptions as Array<{ stream_id: number }>;
      assert.equal(subs.some((s) => s.stream_id === stream.id), false);
      expectError(await ctx.as('mark').get(`/streams/${stream.id}`), 'Invalid channel ID');

      // Sending: by name the stream is gone; by id it is found, private, and the sender is not on it.
      const byName = expectError(
        await ctx.as('mark').post('/messages', { type: 'stream', to: stream.name, topic: 't', content: 'after' }),
        `Channel '${stream.name}' does not exist`,
        'STREAM_DOES_NOT_EXIST',
      );
      assert.equal(byName.stream, stream.name);
      for (const who of ['mark', 'olivia'] as const) {
        expectError(
          await ctx.as(who).post('/messages', { type: 'stream', to: JSON.stringify(stream.id), topic: 't', content: 'after' }),
          `Not authorized to send to channel '${archived}'`,
        );
      }

      // Narrows on it answer as for a stream that does not exist.
      for (const operand of [stream.name, stream.id]) {
        const narrow = JSON.stringify([{ operator: 'channel', operand }]);
        expectError(
          await ctx.as('mark').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow }),
          `Invalid narrow operator: unknown channel ${operand}`,
          'BAD_NARROW',
        );
      }

      // The old name is free for a new stream.
      expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: stream.name }]) }));
      const fresh = await ctx.services.db.selectFrom('stream').select(['id', 'deactivated']).where('name', '=', stream.name).execute();
      assert.equal(fresh.length, 1);
      assert.notEqual(fresh[0]!.id, stream.id);
      assert.equal(fresh[0]!.deactivated, 0);
    });

    it('lengthens the prefix when a stream already holds the archived name', async () => {
      const stream = await makeStream({}, ['mark']);
      const squatter = await makeStream({ name: archivedStreamName(stream.id, stream.name) }, []);
      expectSuccess(await ctx.as('adam').delete(`/streams/${stream.id}`));
      assert.equal((await streamRow(stream.id)).name, archivedStreamName(stream.id, stream.name, 8));
      assert.equal((await streamRow(squatter.id)).deactivated, 0);
    });

    it('archives a stream whose name is already taken by an archived one', async () => {
      const first = await makeStream({ name: 'twice archived' }, ['mark']);
      expectSuccess(await ctx.as('adam').delete(`/streams/${first.id}`));
      const second = await makeStream({ name: 'twice archived' }, ['mark']);
      expectSuccess(await ctx.as('adam').delete(`/streams/${second.id}`));
      assert.notEqual((await streamRow(first.id)).name, (await streamRow(second.id)).name);
    });
  });
}
