// An earlier POST /register state plus the events an action published equals a fresh fetch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { applyEvents } from '../../src/events/apply.js';
import { fetchInitialState, type InitialState } from '../../src/events/initial-state.js';
import { getUserById } from '../../src/queries/users.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: false,
  user_settings_object: true,
  linkifier_url_template: false,
};

for (const dialect of testDialects()) {
  describe(`applyEvents [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    async function fetchState(name: DevUserName): Promise<InitialState> {
      const user = (await getUserById(ctx.store.db, ctx.seed.realm.id, ctx.seed.users[name].id))!;
      return fetchInitialState(ctx.store.db, user, ctx.seed.realm, null, {
        now: Math.floor(ctx.clock.now()),
        clientGravatar: false,
        includeSubscribers: true,
        capabilities: CAPABILITIES,
        serverGeneration: 1,
        development: true,
      });
    }

    /** Runs the action; for each watcher (those in `changing` must see a change), checks that the old state plus its events equals a fresh one. */
    async function verify(watchers: DevUserName[], action: () => Promise<void>, changing: DevUserName[] = watchers) {
      const before = new Map<DevUserName, InitialState>();
      for (const name of watchers) before.set(name, await fetchState(name));
      ctx.clearEvents();
      await action();
      for (const name of watchers) {
        const user = ctx.seed.users[name];
        const old = before.get(name)!;
        const unchanged = structuredClone(old);
        const events = ctx.events.filter((d) => d.users.includes(user.id)).map((d) => structuredClone(d.event));
        applyEvents(old, events, { userId: user.id, role: user.role, includeSubscribers: true });
        assert.deepEqual(old, await fetchState(name), `state of ${name}`);
        if (changing.includes(name)) assert.notDeepEqual(old, unchanged, `nothing changed for ${name}`);
      }
    }

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
