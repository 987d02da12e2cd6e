// An earlier POST /register state plus the events an action published equals a fresh fetch.
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { verifyFolding } from '../support/register-state.js';

for (const dialect of testDialects()) {
  describe(`applyEvents [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const verify = (watchers: DevUserName[], action: () => Promise<void>, changing: DevUserName[] = watchers) =>
      verifyFolding(ctx, { watchers, action, changing });

    it('folds a stream message', async () => {
      await verify(['mark', 'olivia'], async () => {
        expectSuccess(await ctx.as('olivia').post('/messages', { type: 'stream', to: 'engineering', topic: 'Plans', content: 'hello' }));
        expectSuccess(await ctx.as('adam').post('/messages', { type: 'stream', to: 'engineering', topic: 'plans', content: 'again' }));
      });
    });

    it('folds direct messages, one-on-one and in a group', async () => {
      const { mark, mona, milo } = ctx.seed.users;
      await verify(['mark', 'mona', 'milo'], async () => {
        expectSuccess(await ctx.as('mona').post('/messages', { type: 'private', to: [mark.id], content: 'one' }));
        expectSuccess(await ctx.as('mark').post('/messages', { type: 'private', to: [mona.id, milo.id], content: 'group' }));
        expectSuccess(await ctx.as('mark').post('/messages', { type: 'private', to: [mark.id], content: 'self' }));
      });
    });

    it('folds a message deletion', async () => {
      const first = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'del', content: 'a' }));
      expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'del', content: 'b' }));
      await verify(['mona', 'mark'], async () => {
        expectSuccess(await ctx.as('olivia').delete(`/messages/${first.id}`));
      }, []);
    });

    it('folds subscribing and unsubscribing', async () => {
      await verify(['mark', 'mona', 'olivia'], async () => {
        expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] }));
      });
      await verify(['mark', 'mona', 'olivia'], async () => {
        expectSuccess(await ctx.as('mark').delete('/users/me/subscriptions', { subscriptions: ['design'] }));
      });
    });

    it('folds creating a stream through subscribing', async () => {
      await verify(['mark', 'mona', 'gus'], async () => {
        expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'brand-new' }] }));
      }, ['mark', 'mona']);
    });

    it('folds creating a user', async () => {
      await verify(['mark', 'olivia'], async () => {
        expectSuccess(
          await ctx.as('olivia').post('/users', { email: 'newcomer@confab.test', password: 'long enough password', full_name: 'New Comer' }),
        );
      });
    });

    it('folds deactivating and reactivating a user', async () => {
      const { milo } = ctx.seed.users;
      await verify(['mark', 'olivia'], async () => {
        expectSuccess(await ctx.as('olivia').delete(`/users/${milo.id}`));
      });
      await verify(['mark', 'olivia'], async () => {
        expectSuccess(await ctx.as('olivia').post(`/users/${milo.id}/reactivate`));
      });
    });
  });
}
