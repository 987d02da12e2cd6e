import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /users/me/subscriptions/muted_topics [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const patch = (params: Record<string, unknown>) => ctx.as('mark').patch('/users/me/subscriptions/muted_topics', params);
    const policies = async () =>
      (await ctx.services.db
        .selectFrom('user_topic')
        .select(['topic_name', 'visibility_policy'])
        .where('user_id', '=', ctx.seed.users.mark.id)
        .orderBy('id')
        .execute()).map((r) => [r.topic_name, r.visibility_policy]);

    it('mutes by stream id or by stream name, case-insensitively, once', async () => {
      const { general } = ctx.seed.streams;
      ctx.clearEvents();
      expectSuccess(await patch({ stream_id: general.id, topic: 'Noise', op: 'add' }));
      assert.deepEqual(ctx.events.map((d) => d.event.type), ['muted_topics', 'user_topic']);
      expectSuccess(await patch({ stream: 'General', topic: 'NOISE', op: 'add' }));
      expectSuccess(await patch({ stream: 'general', topic: 'other', op: 'add' }));
      assert.deepEqual(await policies(), [['Noise', 1], ['other', 1]]);
    });

    it('unmutes by id or name; unmuting a topic that is not muted succeeds quietly', async () => {
      const { general } = ctx.seed.streams;
      expectSuccess(await patch({ stream_id: general.id, topic: 'noise', op: 'remove' }));
      expectSuccess(await patch({ stream: 'general', topic: 'OTHER', op: 'remove' }));
      assert.deepEqual(await policies(), []);
      ctx.clearEvents();
      expectSuccess(await patch({ stream: 'general', topic: 'never muted', op: 'remove' }));
      assert.deepEqual(ctx.events, []);
    });

    it('refuses missing or doubled stream arguments, unknown streams and long topics', async () => {
      const { general, leadership } = ctx.seed.streams;
      expectError(await patch({ topic: 't', op: 'add' }), "Missing 'stream_id' argument");
      const both = expectError(await patch({ stream_id: general.id, stream: 'general', topic: 't', op: 'add' }), 'Unsupported parameter combination: stream_id, stream');
      assert.equal(both.parameters, 'stream_id, stream');
      expectError(await patch({ stream_id: 99999, topic: 't', op: 'add' }), 'Invalid channel ID');
      expectError(await patch({ stream: 'nowhere', topic: 't', op: 'add' }), "Invalid channel name 'nowhere'");
      expectError(await patch({ stream_id: leadership.id, topic: 't', op: 'add' }), 'Invalid channel ID');
      expectError(await patch({ stream_id: 99999, topic: 't', op: 'remove' }), 'Topic is not muted');
      expectError(await patch({ stream: 'nowhere', topic: 't', op: 'remove' }), 'Topic is not muted');
      expectError(await patch({ stream_id: general.id, topic: 'x'.repeat(61), op: 'add' }), 'topic is too long (limit: 60 characters)');
      expectError(await patch({ stream_id: general.id, topic: 't', op: 'toggle' }), 'Invalid op');
    });
  });
}
