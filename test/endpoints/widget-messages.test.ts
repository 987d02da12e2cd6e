import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import type { DevUserName } from '../../src/dev-seed.js';
import { getMessagesByIds, loadMessageParts } from '../../src/queries/message-dicts.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { sendToGeneral, submessagesOf } from '../support/widgets.js';

for (const dialect of testDialects()) {
  describe(`widget messages [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = (from: DevUserName, content: string, topic?: string) => sendToGeneral(ctx, from, content, topic);
    const submessages = (id: number, reader?: DevUserName) => submessagesOf(ctx, id, reader);

    it('turns a /poll message into a poll widget submessage, in the message event too', async () => {
      ctx.clearEvents();
      const id = await send('mark', '/poll Lunch where?\n- Pizza\n* Tacos\n\n  Salad');
      const { mark } = ctx.seed.users;
      // Written as the reference writes it: Python's json.dumps spacing.
      const content = '{"widget_type": "poll", "extra_data": {"question": "Lunch where?", "options": ["Pizza", "Tacos", "Salad"]}}';
      const [widget] = await submessages(id);
      assert.deepEqual(widget, { msg_type: 'widget', content, message_id: id, sender_id: mark.id, id: widget!.id });
      assert.equal(typeof widget!.id, 'number');
      const messageEvent = ctx.events.find((d) => d.event.type === 'message')!;
      assert.deepEqual((messageEvent.event.message as Record<string, unknown>).submessages, [widget]);
    });

    it('gives a /todo message a todo widget with no extra data, and a bare /poll an empty poll', async () => {
      const { mark } = ctx.seed.users;
      const todo = await send('mark', '/todo\nBuy milk');
      assert.deepEqual(
        (await submessages(todo)).map(({ id: _id, ...rest }) => rest),
        [{ msg_type: 'widget', content: '{"widget_type": "todo", "extra_data": null}', message_id: todo, sender_id: mark.id }],
      );
      const poll = await send('mark', '/poll');
      assert.equal((await submessages(poll))[0]!.content, '{"widget_type": "poll", "extra_data": {"question": "", "options": []}}');
    });

    it('stores non-ASCII text escaped, as the reference writes it', async () => {
      const id = await send('mark', '/poll Café? ☕\n- Oui 🎉');
      assert.equal(
        (await submessages(id))[0]!.content,
        '{"widget_type": "poll", "extra_data": {"question": "Caf\\u00e9? \\u2615", "options": ["Oui \\ud83c\\udf89"]}}',
      );
    });

    it('leaves other messages plain', async () => {
      for (const content of [' /poll indented', '/pollster', 'a /poll later', '/todos']) {
        assert.deepEqual(await submessages(await send('mark', content)), [], content);
      }
    });

    it('works in direct messages', async () => {
      const { mark, mona } = ctx.seed.users;
      const id = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id], content: '/todo' })).id as number;
      assert.equal((await submessages(id))[0]!.sender_id, mark.id);
    });

    it('reads the submessages of any number of messages in one query', async () => {
      const ids = [];
      for (let i = 0; i < 6; i++) ids.push(await send('mark', `/poll Q${i}`, 'counted'));
      const queriesFor = async (messageIds: number[]) => {
        let count = 0;
        const counter: KyselyPlugin = {
          transformQuery: (args) => ((count += 1), args.node),
          transformResult: async (args) => args.result,
        };
        const db = ctx.services.db.withPlugin(counter);
        const parts = await loadMessageParts(db, await getMessagesByIds(db, ctx.seed.realm.id, messageIds));
        assert.ok([...parts.values()].every((part) => part.submessages.length === 1));
        assert.ok(count > 0);
        return count;
      };
      assert.equal(await queriesFor(ids), await queriesFor(ids.slice(0, 1)));
    });

  });
}
