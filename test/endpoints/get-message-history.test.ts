// GET /messages/{message_id}/history: every version of a message, oldest first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { highlightHtmlDifferences } from '../../src/lib/html-diff.js';
import { renderMarkdown } from '../../src/lib/markdown/index.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /messages/{message_id}/history [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const html = (text: string) => renderMarkdown(text).html;
    const setPolicy = async (policy: string) => {
      const settings = JSON.stringify({ message_edit_history_visibility_policy: policy });
      await ctx.services.db.updateTable('realm').set({ settings }).where('id', '=', ctx.seed.realm.id).execute();
    };

    it('lists the original alone for a message never edited', async () => {
      const sent = Math.floor(ctx.clock.now());
      const { id } = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'plain', content: 'original' }));
      const body = expectSuccess(await ctx.as('mona').get(`/messages/${id}/history`));
      assert.deepEqual(body.message_history, [
        { user_id: ctx.seed.users.mark.id, timestamp: sent, topic: 'plain', content: 'original', rendered_content: html('original') },
      ]);
    });

    it('shows each version with what changed, oldest first', async () => {
      const { mark, olivia } = ctx.seed.users;
      const { general, engineering } = ctx.seed.streams;
      const t0 = Math.floor(ctx.clock.now());
      const { id } = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'v1', content: 'one' }));
      ctx.clock.advance(10);
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'two', topic: 'v2' }));
      ctx.clock.advance(10);
      expectSuccess(await ctx.as('olivia').patch(`/messages/${id}`, { stream_id: engineering.id, send_notification_to_new_thread: false }));
      const body = expectSuccess(await ctx.as('mark').get(`/messages/${id}/history`));
      assert.deepEqual(body.message_history, [
        { user_id: mark.id, timestamp: t0, topic: 'v1', content: 'one', rendered_content: html('one') },
        {
          user_id: mark.id,
          timestamp: t0 + 10,
          topic: 'v2',
          content: 'two',
          rendered_content: html('two'),
          prev_topic: 'v1',
          prev_content: 'one',
          prev_rendered_content: html('one'),
          content_html_diff: highlightHtmlDifferences(html('one'), html('two')),
        },
        { user_id: olivia.id, timestamp: t0 + 20, topic: 'v2', content: 'two', rendered_content: html('two'), prev_stream: general.id, stream: engineering.id },
      ]);
      // Under the "moves" policy, content edits disappear and mixed edits keep only the move.
      await setPolicy('moves');
      const moves = expectSuccess(await ctx.as('mark').get(`/messages/${id}/history`)).message_history;
      assert.deepEqual(
        moves.map((e: Record<string, unknown>) => Object.keys(e).filter((k) => k.startsWith('prev_') || k === 'content_html_diff')),
        [[], ['prev_topic'], ['prev_stream']],
      );
      await setPolicy('all');
    });

    it('works for direct messages and hides messages the requester cannot read', async () => {
      const { mona } = ctx.seed.users;
      const { id } = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id], content: 'psst' }));
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'psst!' }));
      const history = expectSuccess(await ctx.as('mona').get(`/messages/${id}/history`)).message_history;
      assert.deepEqual(history.map((e: { topic: string; content: string }) => [e.topic, e.content]), [
        ['', 'psst'],
        ['', 'psst!'],
      ]);
      expectError(await ctx.as('milo').get(`/messages/${id}/history`), 'Invalid message(s)');
      expectError(await ctx.as('milo').get('/messages/999999/history'), 'Invalid message(s)');
    });

    it('refuses when the organization disabled edit history', async () => {
      const { id } = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'x', content: 'y' }));
      await setPolicy('none');
      expectError(await ctx.as('mark').get(`/messages/${id}/history`), 'Message edit history is disabled in this organization');
      await setPolicy('all');
    });
  });
}
