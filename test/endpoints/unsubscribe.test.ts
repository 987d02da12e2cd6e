import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import type { Delivery } from '../../src/events/bus.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /users/me/subscriptions [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const db = () => ctx.services.db;
    const eventsOf = (type: string, op: string): Delivery[] => ctx.events.filter((d) => d.event.type === type && d.event.op === op);
    const membersOf = async (streamId: number) => expectSuccess(await ctx.as('olivia').get(`/streams/${streamId}/members`)).subscribers;
    const unsubscribe = (who: Parameters<TestContext['as']>[0], names: string[], principals?: unknown) =>
      ctx.as(who).delete('/users/me/subscriptions', { subscriptions: names, ...(principals ? { principals } : {}) });

    it('unsubscribes the requester and tells the stream peers', async () => {
      const { mona, gus } = ctx.seed.users;
      const { design } = ctx.seed.streams;
      ctx.clearEvents();
      const body = expectSuccess(await unsubscribe('mona', ['design', 'engineering']));
      assert.deepEqual(body.removed, ['design']);
      assert.deepEqual(body.not_removed, ['engineering']);
      assert.equal((await membersOf(design.id)).includes(mona.id), false);

      const [remove] = eventsOf('subscription', 'remove');
      assert.deepEqual(remove!.event, { type: 'subscription', op: 'remove', subscriptions: [{ name: 'design', stream_id: design.id }] });
      assert.deepEqual(remove!.users, [mona.id]);
      const [peer] = eventsOf('subscription', 'peer_remove');
      assert.deepEqual(peer!.event, { type: 'subscription', op: 'peer_remove', stream_ids: [design.id], user_ids: [mona.id] });
      assert.equal(peer!.users.includes(mona.id), false);
      assert.equal(peer!.users.includes(gus.id), false);
      assert.equal(peer!.users.includes(ctx.seed.users.mark.id), true);
    });

    it('answers for stream names in any case and keeps the row for later', async () => {
      const body = expectSuccess(await unsubscribe('mark', ['  ENGINEERING ']));
      assert.deepEqual(body.removed, ['engineering']);
      const row = await db()
        .selectFrom('subscription')
        .select('active')
        .where('user_id', '=', ctx.seed.users.mark.id)
        .where('recipient_id', '=', ctx.seed.streams.engineering.recipient_id!)
        .executeTakeFirstOrThrow();
      assert.equal(row.active, 0);
    });

    it('refuses streams that do not exist, naming them all', async () => {
      expectError(await unsubscribe('mark', ['general', 'nope', 'nada']), 'Channel(s) (nope, nada) do not exist');
      assert.equal((await membersOf(ctx.seed.streams.general.id)).includes(ctx.seed.users.mark.id), true);
    });

    it('lets only administrators take other users off streams', async () => {
      const { milo } = ctx.seed.users;
      const { general } = ctx.seed.streams;
      expectError(await unsubscribe('mark', ['general'], [milo.id]), 'Insufficient permission');
      expectError(await unsubscribe('maya', ['general'], ['milo@confab.test']), 'Insufficient permission');
      assert.equal((await membersOf(general.id)).includes(milo.id), true);
      const body = expectSuccess(await unsubscribe('adam', ['general'], [milo.id]));
      assert.deepEqual(body, { result: 'success', msg: '', removed: ['general'], not_removed: [] });
    });

    it('lets administrators take users off private streams they are not on', async () => {
      const { olivia, adam, maya } = ctx.seed.users;
      await db().updateTable('user_profile').set({ role: 200 }).where('id', '=', maya.id).execute();
      const body = expectSuccess(await unsubscribe('maya', ['leadership'], [adam.id]));
      assert.deepEqual(body.removed, ['leadership']);
      await db().updateTable('user_profile').set({ role: 300 }).where('id', '=', maya.id).execute();
      assert.deepEqual(await membersOf(ctx.seed.streams.leadership.id), [olivia.id]);
    });

    it('lets a user take their own bot off a stream', async () => {
      const { mark } = ctx.seed.users;
      const bot = await runSystemAction(ctx.services, (sys) =>
        doCreateUser(sys, ctx.seed.realm, { email: 'mark-bot@confab.test', fullName: 'Mark Bot', isBot: true, botOwnerId: mark.id }),
      );
      expectSuccess(await ctx.as('adam').post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [bot.id] }));
      const body = expectSuccess(await unsubscribe('mark', ['general'], [bot.id, mark.id]));
      assert.deepEqual(body.removed, ['general', 'general']);
    });

    it("follows the stream's can_remove_subscribers_group", async () => {
      const { mona } = ctx.seed.users;
      const members = await db().selectFrom('user_group').select('id').where('name', '=', 'role:members').executeTakeFirstOrThrow();
      await db().updateTable('stream').set({ can_remove_subscribers_group_id: members.id }).where('id', '=', ctx.seed.streams.general.id).execute();
      expectSuccess(await unsubscribe('milo', ['general'], [mona.id]));
      assert.equal((await membersOf(ctx.seed.streams.general.id)).includes(mona.id), false);
      // Guests are not members.
      expectError(await unsubscribe('gus', ['general'], [ctx.seed.users.maya.id]), 'Insufficient permission');
    });

    it('checks the principals and the list', async () => {
      expectError(await unsubscribe('adam', ['general'], ['ghost@confab.test']), 'No such user');
      expectError(await unsubscribe('adam', ['general'], [true]), 'principals is not an allowed_type');
      expectError(await ctx.as('mark').delete('/users/me/subscriptions', { subscriptions: '"general"' }), 'subscriptions is not a list');
      expectError(await ctx.as('mark').delete('/users/me/subscriptions', { subscriptions: [3] }), 'subscriptions[0] is not a string');
      expectError(await unsubscribe('mark', ['']), "Channel name can't be empty.");
    });

    it('lets guests leave their streams', async () => {
      const { gus } = ctx.seed.users;
      expectSuccess(await ctx.as('adam').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [gus.id] }));
      assert.deepEqual(expectSuccess(await unsubscribe('gus', ['design'])).removed, ['design']);
    });
  });
}
