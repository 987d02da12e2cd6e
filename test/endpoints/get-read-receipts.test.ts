import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /messages/{message_id}/read_receipts [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (from: DevUserName, params: Record<string, unknown>) => expectSuccess(await ctx.as(from).post('/messages', params)).id as number;
    const markRead = async (name: DevUserName, id: number) =>
      expectSuccess(await ctx.as(name).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }));
    const receipts = async (viewer: DevUserName, id: number) => expectSuccess(await ctx.as(viewer).get(`/messages/${id}/read_receipts`)).user_ids;

    it('is refused while the organization has read receipts off', async () => {
      await setRealmSettings(ctx, { enable_read_receipts: false });
      const id = await send('mark', { type: 'stream', to: 'general', topic: 'r', content: 'off' });
      expectError(await ctx.as('mark').get(`/messages/${id}/read_receipts`), 'Read receipts are disabled in this organization.');
      // A message one may not read is refused first.
      expectError(await ctx.as('mark').get('/messages/999999/read_receipts'), 'Invalid message(s)');
    });

    it('lists readers, without the sender, users who do not share receipts, or mutes either way', async () => {
      await setRealmSettings(ctx, { enable_read_receipts: true });
      const { mark, mona, milo, maya, adam, welcomeBot } = ctx.seed.users;
      const id = await send('mark', { type: 'stream', to: 'general', topic: 'r', content: 'hello' });
      assert.deepEqual(await receipts('mona', id), []);
      for (const name of ['mona', 'milo', 'maya', 'adam', 'olivia'] as const) await markRead(name, id);
      // The sender's own copy is read, yet never listed; bots are listed like anyone.
      await markRead('welcomeBot', id);
      const olivia = ctx.seed.users.olivia;
      assert.deepEqual(await receipts('mona', id), [olivia.id, adam.id, maya.id, mona.id, milo.id, welcomeBot.id].sort((a, b) => a - b));

      expectSuccess(await ctx.as('adam').patch('/settings', { send_read_receipts: false }));
      expectSuccess(await ctx.as('mona').post(`/users/me/muted_users/${milo.id}`));
      expectSuccess(await ctx.as('maya').post(`/users/me/muted_users/${mona.id}`));
      assert.deepEqual(await receipts('mona', id), [olivia.id, mona.id, welcomeBot.id].sort((a, b) => a - b));
      assert.deepEqual(await receipts('mark', id), [olivia.id, maya.id, mona.id, milo.id, welcomeBot.id].sort((a, b) => a - b));

      // Marking unread withdraws the receipt; deactivated users drop out.
      expectSuccess(await ctx.as('olivia').post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' }));
      expectSuccess(await ctx.as('olivia').delete(`/users/${milo.id}`));
      assert.deepEqual(await receipts('mark', id), [maya.id, mona.id, welcomeBot.id].sort((a, b) => a - b));
      assert.ok(!(await receipts('mona', id)).includes(mark.id));
    });

    it('only for messages the viewer may read', async () => {
      const { mona } = ctx.seed.users;
      const direct = await send('mark', { type: 'direct', to: [mona.id], content: 'just us' });
      await markRead('mona', direct);
      assert.deepEqual(await receipts('mark', direct), [mona.id]);
      expectError(await ctx.as('gus').get(`/messages/${direct}/read_receipts`), 'Invalid message(s)');
    });
  });
}
