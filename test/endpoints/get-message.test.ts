import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /messages/{message_id} [${dialect}]`, () => {
    let ctx: TestContext;
    let streamMessage: number;
    let leadershipMessage: number;
    let directMessage: number;
    before(async () => {
      ctx = await setup(dialect);
      streamMessage = expectSuccess(
        await ctx.as('mark').post('/messages', { type: 'stream', to: 'engineering', topic: 'deploys', content: '**Ship** it' }),
      ).id;
      leadershipMessage = expectSuccess(
        await ctx.as('adam').post('/messages', { type: 'stream', to: 'leadership', topic: 'plans', content: 'secret' }),
      ).id;
      directMessage = expectSuccess(
        await ctx.as('mark').post('/messages', { type: 'direct', to: [ctx.seed.users.mona.id], content: 'just us' }),
      ).id;
    });
    after(() => ctx.close());

    it('returns the message with every field and the raw content', async () => {
      const { mark } = ctx.seed.users;
      const body = expectSuccess(await ctx.as('olivia').get(`/messages/${streamMessage}`));
      assert.equal(body.raw_content, '**Ship** it');
      const m = body.message;
      assert.deepEqual(
        { ...m, timestamp: typeof m.timestamp, avatar_url: typeof m.avatar_url },
        {
          id: streamMessage,
          sender_id: mark.id,
          content: '<p><strong>Ship</strong> it</p>',
          recipient_id: ctx.seed.streams.engineering.recipient_id,
          timestamp: 'number',
          client: 'Unspecified',
          subject: 'deploys',
          topic_links: [],
          is_me_message: false,
          reactions: [],
          submessages: [],
          sender_full_name: 'Mark Member',
          sender_email: 'mark@confab.test',
          sender_realm_str: '',
          display_recipient: 'engineering',
          type: 'stream',
          stream_id: ctx.seed.streams.engineering.id,
          avatar_url: 'string',
          content_type: 'text/html',
          flags: [],
        },
      );
    });

    it('returns raw Markdown with apply_markdown=false', async () => {
      const body = expectSuccess(await ctx.as('olivia').get(`/messages/${streamMessage}`, { apply_markdown: false }));
      assert.equal(body.message.content, '**Ship** it');
      assert.equal(body.message.content_type, 'text/x-markdown');
    });

    it('shows public stream history to members who never received it, as read and historical', async () => {
      const body = expectSuccess(await ctx.as('mona').get(`/messages/${streamMessage}`));
      assert.deepEqual(body.message.flags, ['read', 'historical']);
    });

    it('hides messages the requester may not read', async () => {
      expectError(await ctx.as('gus').get(`/messages/${streamMessage}`), 'Invalid message(s)');
      expectError(await ctx.as('mark').get(`/messages/${leadershipMessage}`), 'Invalid message(s)');
      expectError(await ctx.as('milo').get(`/messages/${directMessage}`), 'Invalid message(s)');
      expectError(await ctx.as('mark').get('/messages/99999999'), 'Invalid message(s)');
    });

    it('lists direct-message participants sorted by id', async () => {
      const { mark, mona } = ctx.seed.users;
      const body = expectSuccess(await ctx.as('mona').get(`/messages/${directMessage}`));
      assert.deepEqual(body.message.display_recipient, [
        { id: mark.id, email: 'mark@confab.test', full_name: 'Mark Member', is_mirror_dummy: false },
        { id: mona.id, email: 'mona@confab.test', full_name: 'Mona Member', is_mirror_dummy: false },
      ]);
      assert.equal(body.message.type, 'private');
      assert.equal(body.message.stream_id, undefined);
    });

    it('answers 404 for a message id that is not a number', async () => {
      expectError(await ctx.as('mark').get('/messages/abc', {}, { undocumented: true }), 'Not Found', 'BAD_REQUEST', 404);
    });
  });
}
