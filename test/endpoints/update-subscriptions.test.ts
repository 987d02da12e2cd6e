import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /users/me/subscriptions [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const subscribedNames = async (name: 'mark' | 'gus') =>
      (expectSuccess(await ctx.as(name).get('/users/me/subscriptions')).subscriptions as Array<{ name: string }>).map((s) => s.name).sort();

    it('joins and leaves streams in one call, creating unknown ones', async () => {
      const email = ctx.seed.users.mark.email;
      ctx.clearEvents();
      const body = expectSuccess(
        await ctx.as('mark').patch('/users/me/subscriptions', {
          add: [{ name: 'design' }, { name: 'general' }, { name: 'patch new', description: 'Made by PATCH', color: '#e79ab5' }],
          delete: ['engineering'],
        }),
      );
      assert.deepEqual(body, {
        result: 'success',
        msg: '',
        subscribed: { [email]: ['design', 'patch new'] },
        already_subscribed: { [email]: ['general'] },
        removed: ['engineering'],
        not_removed: [],
      });
      assert.deepEqual(await subscribedNames('mark'), ['design', 'general', 'patch new']);
      const mine = ctx.events.filter((d) => d.users.includes(ctx.seed.users.mark.id)).map((d) => `${d.event.type}/${d.event.op}`);
      assert.ok(mine.includes('subscription/add') && mine.includes('subscription/remove'), mine.join(', '));
      const created = (expectSuccess(await ctx.as('mark').get('/users/me/subscriptions')).subscriptions as Array<Record<string, unknown>>).find(
        (s) => s.name === 'patch new',
      )!;
      assert.equal(created.color, '#e79ab5');
      assert.equal(created.description, 'Made by PATCH');
    });

    it('reports streams one was not on as not removed', async () => {
      const body = expectSuccess(await ctx.as('mark').patch('/users/me/subscriptions', { delete: ['engineering'] }));
      assert.deepEqual(body, { result: 'success', msg: '', subscribed: {}, already_subscribed: {}, removed: [], not_removed: ['engineering'] });
    });

    it('changes nothing when either half fails', async () => {
      const before = await subscribedNames('mark');
      expectError(
        await ctx.as('mark').patch('/users/me/subscriptions', { add: [{ name: 'engineering' }], delete: ['design', 'nowhere'] }),
        'Channel(s) (nowhere) do not exist',
      );
      expectError(
        await ctx.as('mark').patch('/users/me/subscriptions', { add: [{ name: 'leadership' }], delete: ['design'] }),
        'Unable to access channel (leadership).',
      );
      assert.deepEqual(await subscribedNames('mark'), before);
    });

    it('needs something to do, and checks both lists', async () => {
      const mark = ctx.as('mark');
      expectError(await mark.patch('/users/me/subscriptions'), 'Nothing to do. Specify at least one of "add" or "delete".');
      expectError(await mark.patch('/users/me/subscriptions', { add: [], delete: [] }), 'Nothing to do. Specify at least one of "add" or "delete".');
      expectError(await mark.patch('/users/me/subscriptions', { add: 'general' }), 'add is not valid JSON');
      expectError(await mark.patch('/users/me/subscriptions', { add: { name: 'general' } }), 'add is not a list');
      expectError(await mark.patch('/users/me/subscriptions', { add: ['general'] }), 'add[0] is not a dict');
      expectError(await mark.patch('/users/me/subscriptions', { add: [{ color: '#ffffff' }] }), 'name key is missing from add[0]');
      expectError(await mark.patch('/users/me/subscriptions', { delete: [1] }), 'delete[0] is not a string');
    });

    it('refuses guests, even when they only leave streams (the subscribe half always runs)', async () => {
      expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [ctx.seed.users.gus.id] }));
      expectError(await ctx.as('gus').patch('/users/me/subscriptions', { delete: ['general'] }), 'Not allowed for guest users');
      assert.deepEqual(await subscribedNames('gus'), ['general']);
    });
  });
}
