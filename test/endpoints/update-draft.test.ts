import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /drafts/{draft_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const createOne = async () =>
      (expectSuccess(await ctx.as('mark').post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'first', timestamp: 10 }] }))
        .ids as number[])[0]!;

    it('replaces the draft and tells the user', async () => {
      const { mark } = ctx.seed.users;
      const id = await createOne();
      ctx.clearEvents();
      const general = ctx.seed.streams.general.id;
      expectSuccess(await ctx.as('mark').patch(`/drafts/${id}`, { draft: { type: 'stream', to: [general], topic: 'new', content: 'second', timestamp: 20 } }));
      const draft = { id, type: 'stream', to: [general], topic: 'new', content: 'second', timestamp: 20 };
      assert.deepEqual(expectSuccess(await ctx.as('mark').get('/drafts')).drafts, [draft]);
      assert.deepEqual(ctx.events, [{ event: { type: 'drafts', op: 'update', draft }, users: [mark.id] }]);
    });

    it('stamps the edit with the current time when no timestamp is sent', async () => {
      const id = await createOne();
      ctx.clock.advance(100);
      expectSuccess(await ctx.as('mark').patch(`/drafts/${id}`, { draft: { type: '', to: [], topic: '', content: 'again' } }));
      const found = (expectSuccess(await ctx.as('mark').get('/drafts')).drafts as Array<Record<string, unknown>>).find((d) => d.id === id);
      assert.equal(found!.timestamp, Math.floor(ctx.clock.now()));
    });

    it('answers 404 for unknown drafts and other users drafts, before checking the new draft', async () => {
      const id = await createOne();
      const draft = { type: '', to: [], topic: '', content: 'x' };
      expectError(await ctx.as('mona').patch(`/drafts/${id}`, { draft }), 'Draft does not exist', 'BAD_REQUEST', 404);
      expectError(await ctx.as('mark').patch('/drafts/999999', { draft }), 'Draft does not exist', 'BAD_REQUEST', 404);
      expectError(
        await ctx.as('mark').patch('/drafts/999999', { draft: { type: 'stream', to: [], topic: '', content: 'x' } }),
        'Draft does not exist',
        'BAD_REQUEST',
        404,
      );
    });

    it('applies every rule of a new draft', async () => {
      const id = await createOne();
      const { general, engineering } = ctx.seed.streams;
      const edit = (draft: unknown) => ctx.as('mark').patch(`/drafts/${id}`, { draft });
      expectError(
        await edit({ type: 'stream', to: [general.id, engineering.id], topic: '', content: 'x' }),
        'Must specify exactly 1 channel ID for channel messages',
      );
      expectError(await edit({ type: 'private', to: [424242], topic: '', content: 'x' }), 'Invalid user ID 424242');
      expectError(await edit({ type: '', to: [], topic: '', content: 'x', timestamp: -5 }), 'Timestamp must not be negative.');
      expectError(await edit({ type: '', to: [], topic: '', content: '' }), 'draft["content"] cannot be blank');
      expectError(await edit([]), 'draft is not a dict');
      expectError(await ctx.as('mark').patch(`/drafts/${id}`, {}), "Missing 'draft' argument", 'REQUEST_VARIABLE_MISSING');
      const found = (expectSuccess(await ctx.as('mark').get('/drafts')).drafts as Array<Record<string, unknown>>).find((d) => d.id === id);
      assert.equal(found!.content, 'first');
    });

    it('refuses users who turned draft synchronization off', async () => {
      const id = await createOne();
      const { mark } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ settings: '{"enable_drafts_synchronization":false}' }).where('id', '=', mark.id).execute();
      expectError(
        await ctx.as('mark').patch(`/drafts/${id}`, { draft: { type: '', to: [], topic: '', content: 'x' } }),
        'User has disabled synchronizing drafts.',
      );
    });
  });
}
