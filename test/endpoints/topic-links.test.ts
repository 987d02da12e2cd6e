// topic_links on message objects, and linkifiers applied when a message is sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const TRAC = { pattern: '#(?P<id>[0-9]{2,8})', url_template: 'https://trac.example.com/ticket/{id}' };

for (const dialect of testDialects()) {
  describe(`topic_links and linkified content [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (topic: string, content = 'hello') =>
      expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic, content })).id as number;
    const fetch = async (id: number) => expectSuccess(await ctx.as('mona').get(`/messages/${id}`)).message;

    it('lists URLs in a topic even without linkifiers, and nothing for direct messages', async () => {
      const id = await send('see google.com/x');
      assert.deepEqual((await fetch(id)).topic_links, [{ text: 'google.com/x', url: 'https://google.com/x' }]);
      const direct = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: JSON.stringify([ctx.seed.users.mona.id]), content: 'hi' })).id;
      assert.deepEqual((await fetch(direct)).topic_links, []);
    });

    it('adds linkifier matches in order of appearance, in events and fetches, and follows changes', async () => {
      const linkifierId = expectSuccess(await ctx.as('adam').post('/realm/filters', TRAC)).id;
      ctx.clearEvents();
      const id = await send('#444 broke https://ci.example/run/1 and #444', 'fixed in #224, not issue#124');
      const expected = [
        { text: '#444', url: 'https://trac.example.com/ticket/444' },
        { text: 'https://ci.example/run/1', url: 'https://ci.example/run/1' },
        { text: '#444', url: 'https://trac.example.com/ticket/444' },
      ];
      const event = ctx.events.find((d) => d.event.type === 'message')!.event as { message: Record<string, any> };
      assert.deepEqual(event.message.topic_links, expected);
      const message = await fetch(id);
      assert.deepEqual(message.topic_links, expected);
      assert.ok(message.content.includes('<a href="https://trac.example.com/ticket/224">#224</a>'), message.content);
      assert.ok(!message.content.includes('ticket/124'), message.content);

      const page = expectSuccess(
        await ctx.as('mona').get('/messages', { anchor: String(id), num_before: 0, num_after: 0, narrow: '[]' }),
      );
      assert.deepEqual(page.messages[0].topic_links, expected);

      // The cached linkifiers follow edits and removal.
      expectSuccess(await ctx.as('adam').patch(`/realm/filters/${linkifierId}`, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://bugs.example/{id}' }));
      assert.deepEqual((await fetch(id)).topic_links[0], { text: '#444', url: 'https://bugs.example/444' });
      expectSuccess(await ctx.as('adam').delete(`/realm/filters/${linkifierId}`));
      assert.deepEqual((await fetch(id)).topic_links, [{ text: 'https://ci.example/run/1', url: 'https://ci.example/run/1' }]);
    });
  });
}
