import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { resetBulkLimits, setBulkLimits } from '../../src/actions/batched-work.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /streams/{stream_id}/delete_topic [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    afterEach(() => resetBulkLimits());

    const send = async (to: string, topic: string, from: DevUserName = 'mark') =>
      expectSuccess(await ctx.as(from).post('/messages', { type: 'stream', to, topic, content: 'x' })).id as number;
    const sendMany = async (to: string, topic: string, count: number) => {
      const ids: number[] = [];
      for (let i = 0; i < count; i++) ids.push(await send(to, topic));
      return ids;
    };
    const remaining = async (ids: number[]) =>
      (await ctx.services.db.selectFrom('message').select('id').where('id', 'in', ids).orderBy('id').execute()).map((r) => r.id);
    const topicMessages = async (stream: string, topic: string) => {
      const narrow = [{ operator: 'stream', operand: stream }, { operator: 'topic', operand: topic }];
      return expectSuccess(await ctx.as('olivia').get('/messages', { anchor: 'newest', num_before: 100, narrow })).messages as unknown[];
    };
    const deleteEvents = () => ctx.events.filter((d) => d.event.type === 'delete_message');
    const streamIdOf = async (name: string) =>
      (await ctx.services.db.selectFrom('stream').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

    it('deletes every message of the topic, newest first, and the topic with them', async () => {
      const doomed = await sendMany('general', 'doomed', 5);
      const kept = await send('general', 'kept');
      const general = ctx.seed.streams.general.id;
      expectSuccess(await ctx.as('mona').post(`/messages/${doomed[0]}/reactions`, { emoji_name: 'octopus' }));
      setBulkLimits({ deleteBatchSize: 2 });
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('adam').post(`/streams/${general}/delete_topic`, { topic_name: 'doomed' }));
      assert.deepEqual(body, { result: 'success', msg: '', complete: true });
      assert.deepEqual(await remaining([...doomed, kept]), [kept]);
      assert.deepEqual(await topicMessages('general', 'doomed'), []);
      assert.equal((await topicMessages('general', 'kept')).length, 1);
      const reactions = await ctx.services.db.selectFrom('reaction').select('id').where('message_id', 'in', doomed).execute();
      assert.deepEqual(reactions, []);
      const events = deleteEvents();
      assert.deepEqual(
        events.map((d) => d.event.message_ids),
        [doomed.slice(3, 5), doomed.slice(1, 3), doomed.slice(0, 1)],
      );
      assert.deepEqual(events[0]!.event, { type: 'delete_message', message_ids: doomed.slice(3, 5), message_type: 'stream', stream_id: general, topic: 'doomed' });
      const { olivia, adam, maya, mark, mona, milo, welcomeBot } = ctx.seed.users;
      const everyone = [olivia, adam, maya, mark, mona, milo, welcomeBot].map((u) => u.id).sort((a, b) => a - b);
      assert.deepEqual([...events[0]!.users].sort((a, b) => a - b), everyone);
    });

    it('answers complete: false when the time budget runs out, and finishes when repeated', async () => {
      const doomed = await sendMany('general', 'slow', 3);
      const general = ctx.seed.streams.general.id;
      setBulkLimits({ deleteBatchSize: 2, timeBudgetSeconds: 0 });
      const first = expectSuccess(await ctx.as('olivia').post(`/streams/${general}/delete_topic`, { topic_name: 'slow' }));
      assert.equal(first.complete, false);
      assert.deepEqual(await remaining(doomed), doomed.slice(0, 1));
      const second = expectSuccess(await ctx.as('olivia').post(`/streams/${general}/delete_topic`, { topic_name: 'slow' }));
      assert.equal(second.complete, true);
      assert.deepEqual(await remaining(doomed), []);
    });

    it('matches the topic case-insensitively, naming each spelling in its own event', async () => {
      const upper = await send('general', 'Mixed');
      const lower = await send('general', 'mixed');
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').post(`/streams/${ctx.seed.streams.general.id}/delete_topic`, { topic_name: 'MIXED' }));
      assert.deepEqual(await remaining([upper, lower]), []);
      const named = deleteEvents().map((d) => [d.event.topic, d.event.message_ids]).sort();
      assert.deepEqual(named, [['Mixed', [upper]], ['mixed', [lower]]]);
    });

    it('a topic without messages is deleted already', async () => {
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('olivia').post(`/streams/${ctx.seed.streams.general.id}/delete_topic`, { topic_name: 'never used' }));
      assert.equal(body.complete, true);
      assert.deepEqual(deleteEvents(), []);
    });

    it('in a private stream without shared history, deletes only what the administrator received', async () => {
      const { adam } = ctx.seed.users;
      expectSuccess(
        await ctx.as('olivia').post('/users/me/subscriptions', {
          subscriptions: [{ name: 'vault' }],
          invite_only: true,
          history_public_to_subscribers: false,
        }),
      );
      const early = await send('vault', 'plans', 'olivia');
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: [adam.id] }));
      const late = await send('vault', 'plans', 'olivia');
      const vault = await streamIdOf('vault');
      expectSuccess(await ctx.as('adam').post(`/streams/${vault}/delete_topic`, { topic_name: 'plans' }));
      assert.deepEqual(await remaining([early, late]), [early]);
    });

    it('refuses non-administrators, unknown streams and private streams the administrator is not in', async () => {
      const general = ctx.seed.streams.general.id;
      const id = await send('general', 'protected');
      for (const user of ['maya', 'mark', 'gus'] as const) {
        expectError(await ctx.as(user).post(`/streams/${general}/delete_topic`, { topic_name: 'protected' }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      }
      assert.deepEqual(await remaining([id]), [id]);
      expectError(await ctx.as('adam').post('/streams/99999/delete_topic', { topic_name: 'x' }), 'Invalid channel ID');
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'owners-only' }], invite_only: true }));
      const secret = await send('owners-only', 'plans', 'olivia');
      expectError(await ctx.as('adam').post(`/streams/${await streamIdOf('owners-only')}/delete_topic`, { topic_name: 'plans' }), 'Invalid channel ID');
      assert.deepEqual(await remaining([secret]), [secret]);
      expectError(await ctx.as('adam').post(`/streams/${general}/delete_topic`, {}), "Missing 'topic_name' argument", 'REQUEST_VARIABLE_MISSING');
      const res = await ctx.as('adam').post('/streams/abc/delete_topic', { topic_name: 'x' }, { undocumented: true });
      assert.equal(res.status, 404);
      assert.equal(expectSuccess(await ctx.as('adam').post(`/streams/${general}/delete_topic`, { topic_name: 'a\u0000b' })).complete, true);
    });
  });
}
