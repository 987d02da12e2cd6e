import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /users/me/{stream_id}/topics [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (client: ApiClient, stream: string, topic: string) =>
      expectSuccess(await client.post('/messages', { type: 'stream', to: stream, topic, content: `in ${topic}` })).id as number;
    const create = async (client: ApiClient, name: string, options: Record<string, unknown> = {}) => {
      expectSuccess(await client.post('/users/me/subscriptions', { subscriptions: [{ name }], ...options }));
      const rows = expectSuccess(await client.get('/users/me/subscriptions')).subscriptions as Array<{ name: string; stream_id: number }>;
      return rows.find((s) => s.name === name)!.stream_id;
    };

    it('lists the topics of a public stream newest first, one entry per topic whatever its case', async () => {
      const mark = ctx.as('mark');
      const streamId = await create(mark, 'topics public');
      const first = await send(mark, 'topics public', 'Lunch');
      const other = await send(mark, 'topics public', 'other');
      const last = await send(mark, 'topics public', 'lunch');
      const expected = [
        { name: 'lunch', max_id: last },
        { name: 'other', max_id: other },
      ];
      assert.ok(first < other);
      // Anyone but a guest may read a public stream, subscribed or not.
      assert.deepEqual(expectSuccess(await ctx.as('mona').get(`/users/me/${streamId}/topics`)).topics, expected);
      assert.deepEqual(expectSuccess(await mark.get(`/users/me/${streamId}/topics`)).topics, expected);
    });

    it('answers an empty list for a stream without messages', async () => {
      const streamId = await create(ctx.as('mark'), 'topics empty');
      assert.deepEqual(expectSuccess(await ctx.as('mark').get(`/users/me/${streamId}/topics`)).topics, []);
    });

    it('shows a private stream with protected history only as far as the subscriber received it', async () => {
      const mark = ctx.as('mark');
      const streamId = await create(mark, 'topics vault', { invite_only: true, history_public_to_subscribers: false });
      const before = await send(mark, 'topics vault', 'before mona');
      expectSuccess(await mark.post('/users/me/subscriptions', { subscriptions: [{ name: 'topics vault' }], principals: [ctx.seed.users.mona.id] }));
      const afterId = await send(mark, 'topics vault', 'after mona');
      assert.deepEqual(expectSuccess(await mark.get(`/users/me/${streamId}/topics`)).topics, [
        { name: 'after mona', max_id: afterId },
        { name: 'before mona', max_id: before },
      ]);
      assert.deepEqual(expectSuccess(await ctx.as('mona').get(`/users/me/${streamId}/topics`)).topics, [{ name: 'after mona', max_id: afterId }]);
    });

    it('shows a private stream with shared history whole to subscribers', async () => {
      const olivia = ctx.as('olivia');
      const earlier = await send(olivia, 'leadership', 'plans');
      expectSuccess(await olivia.post('/users/me/subscriptions', { subscriptions: [{ name: 'leadership' }], principals: [ctx.seed.users.milo.id] }));
      const topics = expectSuccess(await ctx.as('milo').get(`/users/me/${ctx.seed.streams.leadership.id}/topics`)).topics;
      assert.deepEqual(topics, [{ name: 'plans', max_id: earlier }]);
    });

    it('refuses private streams to non-subscribers, administrators included', async () => {
      const { leadership } = ctx.seed.streams;
      expectError(await ctx.as('mark').get(`/users/me/${leadership.id}/topics`), 'Invalid channel ID');
      // Adam may see the stream's metadata as an administrator, but not its topics once he has left.
      expectSuccess(await ctx.as('adam').delete('/users/me/subscriptions', { subscriptions: ['leadership'] }));
      expectError(await ctx.as('adam').get(`/users/me/${leadership.id}/topics`), 'Invalid channel ID');
    });

    it('refuses guests on public streams they are not on, and unknown or archived streams', async () => {
      expectError(await ctx.as('gus').get(`/users/me/${ctx.seed.streams.general.id}/topics`), 'Invalid channel ID');
      expectError(await ctx.as('mark').get('/users/me/424242/topics'), 'Invalid channel ID');
      const { design } = ctx.seed.streams;
      await ctx.services.db.updateTable('stream').set({ deactivated: 1 }).where('id', '=', design.id).execute();
      expectError(await ctx.as('mona').get(`/users/me/${design.id}/topics`), 'Invalid channel ID');
      await ctx.services.db.updateTable('stream').set({ deactivated: 0 }).where('id', '=', design.id).execute();
    });

    it('lets a guest read the topics of a stream they are on', async () => {
      const streamId = await create(ctx.as('mark'), 'topics guests');
      const id = await send(ctx.as('mark'), 'topics guests', 'hello');
      expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'topics guests' }], principals: [ctx.seed.users.gus.id] }));
      assert.deepEqual(expectSuccess(await ctx.as('gus').get(`/users/me/${streamId}/topics`)).topics, [{ name: 'hello', max_id: id }]);
    });

    it('answers 404 for a path segment that is not an id', async () => {
      expectError(await ctx.as('mark').get('/users/me/general/topics', {}, { undocumented: true }), 'Not Found', 'BAD_REQUEST', 404);
    });
  });
}
