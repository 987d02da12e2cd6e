import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { sendToGeneral, submessagesOf } from '../support/widgets.js';

// POST /submessage is not in the reference's API document; only its events and message fields are.
const UNDOCUMENTED = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`widgets and POST /submessage [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = (from: DevUserName, content: string, topic?: string) => sendToGeneral(ctx, from, content, topic);
    const submessages = (id: number, reader?: DevUserName) => submessagesOf(ctx, id, reader);
    const submit = (user: DevUserName, messageId: number, content: unknown, msgType = 'widget') =>
      ctx.as(user).post(
        '/submessage',
        { message_id: messageId, msg_type: msgType, content: typeof content === 'string' ? content : JSON.stringify(content) },
        UNDOCUMENTED,
      );
    const submessageEvents = () => ctx.events.filter((d) => d.event.type === 'submessage');

    it('adds a vote and tells everyone who has the message', async () => {
      const id = await send('mark', '/poll Pick\nA\nB');
      ctx.clearEvents();
      const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
      expectSuccess(await submit('mona', id, vote));
      const [delivery] = submessageEvents();
      const [, added] = await submessages(id);
      const { mona } = ctx.seed.users;
      assert.deepEqual(delivery!.event, {
        type: 'submessage',
        msg_type: 'widget',
        message_id: id,
        submessage_id: added!.id,
        sender_id: mona.id,
        content: vote,
      });
      assert.deepEqual(added, { msg_type: 'widget', content: vote, message_id: id, sender_id: mona.id, id: added!.id });
      const holders = await ctx.services.db.selectFrom('user_message').select('user_id').where('message_id', '=', id).execute();
      const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
      assert.deepEqual(sorted(delivery!.users), sorted(holders.map((h) => h.user_id)));
    });

    it('accepts new options, the author’s question edit, and todo tasks and strikes', async () => {
      const poll = await send('mark', '/poll Q');
      expectSuccess(await submit('mona', poll, { type: 'new_option', option: 'C', idx: 1 }));
      expectSuccess(await submit('mark', poll, { type: 'question', question: 'Better Q' }));
      const todo = await send('mark', '/todo');
      expectSuccess(await submit('mona', todo, { type: 'new_task', key: 1, task: 'Milk', desc: '', completed: false }));
      expectSuccess(await submit('mona', todo, { type: 'strike', key: '1,' + ctx.seed.users.mona.id }));
      const types = (await submessages(todo)).slice(1).map((s) => JSON.parse(s.content as string).type);
      assert.deepEqual(types, ['new_task', 'strike']);
    });

    it('refuses a message the user cannot see', async () => {
      const { mark, mona } = ctx.seed.users;
      const id = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id], content: '/poll secret' })).id as number;
      expectError(await submit('milo', id, { type: 'vote', key: 'canned,0', vote: 1 }), 'Invalid message(s)');
      expectError(await submit('milo', 999999, { type: 'vote', key: 'canned,0', vote: 1 }), 'Invalid message(s)');
      assert.equal((await submessages(id, 'mark')).length, 1, String(mark.id));
    });

    it('refuses bad JSON and invalid widget content with the reference texts', async () => {
      const poll = await send('mark', '/poll Q');
      const todo = await send('mark', '/todo');
      const cases: Array<[number, unknown, string]> = [
        [poll, '{not json', 'Invalid json for submessage'],
        [poll, [1], 'poll data is not a dict'],
        [poll, { key: 'x' }, 'type key is missing from poll data'],
        [poll, { type: 5 }, 'poll data["type"] is not a string'],
        [poll, { type: 'vote', key: 'x', vote: 2 }, 'Invalid poll data["vote"]'],
        [poll, { type: 'vote', key: 3, vote: 1 }, 'poll data["key"] is not a string'],
        [poll, { type: 'vote', key: 'x', vote: 1, extra: 1 }, 'Unexpected arguments: extra'],
        [poll, { type: 'new_option', option: 'x', idx: 1001 }, 'poll data["idx"] is too large'],
        [poll, { type: 'new_option', option: 'x', idx: 1.5 }, 'poll data["idx"] is not an integer'],
        [poll, { type: 'question', question: 'mine now' }, "You can't edit a question unless you are the author."],
        [poll, { type: 'close' }, 'Unknown type for poll data: close'],
        [todo, { type: 'new_task', key: 1, task: 't', desc: 'd' }, 'completed key is missing from todo data'],
        [todo, { type: 'new_task', key: 1, task: 't', desc: 'd', completed: 'no' }, 'todo data["completed"] is not a boolean'],
        [todo, { type: 'strike', key: 1 }, 'todo data["key"] is not a string'],
        [todo, { type: 'rename' }, 'Unknown type for todo data: rename'],
      ];
      for (const [id, content, msg] of cases) expectError(await submit('mona', id, content), msg);
      assert.equal((await submessages(poll)).length, 1);
    });

    it('lets only the sender start submessages on a message without any', async () => {
      const plain = await send('mark', 'no widget here');
      expectError(await submit('mona', plain, { anything: true }), 'You cannot attach a submessage to this message.');
      expectError(await submit('mark', plain, '{}', 'bad\u0000type'), 'msg_type contains NULL (0x00) characters.');
      expectSuccess(await submit('mark', plain, '{"free": "form"}', 'custom'));
      expectSuccess(await submit('mona', plain, '[]', 'custom'));
      assert.deepEqual((await submessages(plain)).map((s) => [s.msg_type, s.content]), [['custom', '{"free": "form"}'], ['custom', '[]']]);
    });

    it('fills submessages in GET /messages, each message its own in id order', async () => {
      const first = await send('mark', '/poll One', 'many');
      const plain = await send('mark', 'plain', 'many');
      const second = await send('mark', '/todo', 'many');
      expectSuccess(await submit('mona', first, { type: 'vote', key: 'canned,0', vote: 1 }));
      const body = expectSuccess(
        await ctx.as('mona').get('/messages', {
          anchor: 'newest', num_before: 3, num_after: 0,
          narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'many' }],
        }),
      );
      const byId = new Map((body.messages as Array<Record<string, any>>).map((m) => [m.id as number, m.submessages as Array<Record<string, any>>]));
      assert.deepEqual(byId.get(first)!.map((s) => [s.message_id, s.msg_type, JSON.parse(s.content).type ?? 'widget']), [[first, 'widget', 'widget'], [first, 'widget', 'vote']]);
      assert.ok(byId.get(first)![0]!.id < byId.get(first)![1]!.id);
      assert.deepEqual(byId.get(plain), []);
      assert.deepEqual(byId.get(second)!.map((s) => s.message_id), [second]);
    });

    it('removes submessages with their message', async () => {
      const id = await send('mark', '/poll Gone soon');
      expectSuccess(await submit('mona', id, { type: 'vote', key: 'canned,0', vote: 1 }));
      expectSuccess(await ctx.as('adam').delete(`/messages/${id}`));
      const left = await ctx.services.db.selectFrom('submessage').select('id').where('message_id', '=', id).execute();
      assert.deepEqual(left, []);
    });

  });
}
