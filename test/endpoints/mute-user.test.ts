import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /users/me/muted_users/{muted_user_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const flagsOf = async (userId: number, messageId: number) =>
      (await ctx.services.db
        .selectFrom('user_message')
        .select('flags')
        .where('user_id', '=', userId)
        .where('message_id', '=', messageId)
        .executeTakeFirstOrThrow()).flags;
    const isRead = async (userId: number, messageId: number) => ((await flagsOf(userId, messageId)) & FLAG_BITS.read) !== 0;

    it('marks the muted user messages read, then announces the new list', async () => {
      const { mark, mona, milo } = ctx.seed.users;
      const fromMona = expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'm', content: 'one' })).id;
      const directFromMona = expectSuccess(await ctx.as('mona').post('/messages', { type: 'direct', to: [mark.id], content: 'two' })).id;
      const fromMilo = expectSuccess(await ctx.as('milo').post('/messages', { type: 'stream', to: 'general', topic: 'm', content: 'three' })).id;
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').post(`/users/me/muted_users/${mona.id}`));
      const now = Math.floor(ctx.clock.now());
      assert.deepEqual(
        ctx.events.map((d) => d.event),
        [
          { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [fromMona, directFromMona].sort((a, b) => a - b), all: false },
          { type: 'muted_users', muted_users: [{ id: mona.id, timestamp: now }] },
        ],
      );
      assert.ok(ctx.events.every((d) => d.users.length === 1 && d.users[0] === mark.id));
      assert.equal(await isRead(mark.id, fromMona), true);
      assert.equal(await isRead(mark.id, directFromMona), true);
      assert.equal(await isRead(mark.id, fromMilo), false);
      assert.equal(await isRead(milo.id, fromMona), false, 'others are not affected');
    });

    it('makes later messages from the muted user arrive read, for the muter only', async () => {
      const { mark, mona, milo } = ctx.seed.users;
      ctx.clearEvents();
      const id = expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'm', content: 'later @**Mark Member**' })).id;
      assert.equal(await isRead(mark.id, id), true);
      assert.equal(await isRead(milo.id, id), false);
      const markEvent = ctx.events.find((d) => d.event.type === 'message' && d.users.includes(mark.id))!;
      assert.ok((markEvent.event.flags as string[]).includes('read'));
      assert.equal(markEvent.users.includes(milo.id), false);
      const direct = expectSuccess(await ctx.as('mona').post('/messages', { type: 'direct', to: [mark.id], content: 'psst' })).id;
      assert.equal(await isRead(mark.id, direct), true);
      const unread = expectSuccess(await ctx.as('mark').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'unread' }] }));
      assert.equal((unread.messages as Array<{ sender_id: number }>).some((m) => m.sender_id === mona.id), false);
    });

    it('sends no flags event when nothing was unread', async () => {
      const { adam } = ctx.seed.users;
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').post(`/users/me/muted_users/${adam.id}`));
      assert.deepEqual(ctx.events.map((d) => d.event.type), ['muted_users']);
      assert.deepEqual((ctx.events[0]!.event.muted_users as Array<{ id: number }>).map((m) => m.id), [ctx.seed.users.mona.id, adam.id]);
    });

    it('mutes bots and deactivated users too', async () => {
      const { welcomeBot, milo } = ctx.seed.users;
      expectSuccess(await ctx.as('mona').post(`/users/me/muted_users/${welcomeBot.id}`));
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', milo.id).execute();
      try {
        expectSuccess(await ctx.as('mona').post(`/users/me/muted_users/${milo.id}`));
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', milo.id).execute();
      }
    });

    it('refuses self, unknown users and users already muted', async () => {
      const { mark, mona } = ctx.seed.users;
      expectError(await ctx.as('mark').post(`/users/me/muted_users/${mark.id}`), 'Cannot mute self');
      expectError(await ctx.as('mark').post('/users/me/muted_users/999999'), 'No such user');
      expectError(await ctx.as('mark').post(`/users/me/muted_users/${mona.id}`), 'User already muted');
      expectError(await ctx.as('mark').post('/users/me/muted_users/abc'), 'Not Found', 'BAD_REQUEST', 404);
    });
  });
}
