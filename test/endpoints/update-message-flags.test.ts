import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /messages/flags [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (from: DevUserName, params: Record<string, unknown>) =>
      expectSuccess(await ctx.as(from).post('/messages', params)).id as number;
    const flagsOf = async (user: DevUserName, id: number) =>
      (await ctx.services.db.selectFrom('user_message').select('flags').where('user_id', '=', ctx.seed.users[user].id).where('message_id', '=', id).executeTakeFirst())?.flags;
    const flagEvents = () => ctx.events.filter((d) => d.event.type === 'update_message_flags');

    it('marks messages read and reports only the ones that changed in its event', async () => {
      const a = await send('mark', { type: 'stream', to: 'general', topic: 'flags', content: 'one' });
      const b = await send('mark', { type: 'stream', to: 'general', topic: 'flags', content: 'two' });
      expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [a], op: 'add', flag: 'read' }));
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [a, b], op: 'add', flag: 'read' }));
      assert.deepEqual(body.messages, [a, b]);
      assert.equal((await flagsOf('mona', b))! & FLAG_BITS.read, FLAG_BITS.read);
      const [delivery] = flagEvents();
      assert.deepEqual(delivery!.event, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [b], all: false });
      assert.deepEqual(delivery!.users, [ctx.seed.users.mona.id]);
    });

    it('marks unread with the details clients need for their counts', async () => {
      const stream = await send('mark', { type: 'stream', to: 'general', topic: 'Counts', content: 'hi all' });
      const group = await send('mark', { type: 'direct', to: [ctx.seed.users.mona.id, ctx.seed.users.milo.id], content: 'group' });
      expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [stream, group], op: 'add', flag: 'read' }));
      ctx.clearEvents();
      expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [stream, group], op: 'remove', flag: 'read' }));
      const [delivery] = flagEvents();
      const { mark, milo } = ctx.seed.users;
      assert.deepEqual(delivery!.event.message_details, {
        [stream]: { type: 'stream', stream_id: ctx.seed.streams.general.id, topic: 'Counts', unmuted_stream_msg: true },
        [group]: { type: 'private', user_ids: [mark.id, milo.id].sort((x, y) => x - y) },
      });
    });

    it('stars a public-stream message never received on a new historical row', async () => {
      const id = await send('mark', { type: 'stream', to: 'engineering', topic: 'stars', content: 'star me' });
      assert.equal(await flagsOf('mona', id), undefined);
      const body = expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }));
      assert.deepEqual(body.messages, [id]);
      assert.equal(await flagsOf('mona', id), FLAG_BITS.read | FLAG_BITS.historical | FLAG_BITS.starred);
      expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [id], op: 'remove', flag: 'starred' }));
      assert.equal(await flagsOf('mona', id), FLAG_BITS.read | FLAG_BITS.historical);
    });

    it('skips marking unread in streams the user is not subscribed to', async () => {
      const id = await send('mark', { type: 'stream', to: 'engineering', topic: 'skip', content: 'not for mona' });
      ctx.clearEvents();
      expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' }));
      assert.equal(await flagsOf('mona', id), undefined);
      assert.deepEqual(flagEvents()[0]!.event.messages, []);
    });

    it('refuses bad flags, operations and messages with the reference texts', async () => {
      const id = await send('mark', { type: 'stream', to: 'general', topic: 'errors', content: 'x' });
      const mona = ctx.as('mona');
      expectError(await mona.post('/messages/flags', { messages: [id], op: 'add', flag: 'bogus' }), "Invalid flag: 'bogus'");
      expectError(await mona.post('/messages/flags', { messages: [id], op: 'add', flag: 'is_private' }), "Invalid flag: 'is_private'");
      expectError(await mona.post('/messages/flags', { messages: [id], op: 'add', flag: 'mentioned' }), "Flag not editable: 'mentioned'");
      expectError(await mona.post('/messages/flags', { messages: [id], op: 'toggle', flag: 'read' }), "Invalid message flag operation: 'toggle'");
      const secret = await send('adam', { type: 'stream', to: 'leadership', topic: 'x', content: 'secret' });
      expectError(await mona.post('/messages/flags', { messages: [secret], op: 'add', flag: 'starred' }), 'Invalid message(s)');
      expectError(await mona.post('/messages/flags', { messages: [99999999], op: 'add', flag: 'starred' }), 'Invalid message(s)');
      expectError(await mona.post('/messages/flags', { messages: 'nope', op: 'add', flag: 'read' }), 'messages is not valid JSON');
      expectError(await mona.post('/messages/flags', { messages: ['a'], op: 'add', flag: 'read' }), 'messages[0] is not an integer');
      expectError(await mona.post('/messages/flags', { op: 'add', flag: 'read' }), "Missing 'messages' argument", 'REQUEST_VARIABLE_MISSING');
    });
  });
}
