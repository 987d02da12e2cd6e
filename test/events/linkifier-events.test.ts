// realm_linkifiers and realm_playgrounds events: their shapes match the reference, and an
// earlier POST /register state plus them equals a fresh fetch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { applyEvents } from '../../src/events/apply.js';
import { fetchInitialState, type InitialState } from '../../src/events/initial-state.js';
import type { ClientCapabilities } from '../../src/events/types.js';
import { getUserById } from '../../src/queries/users.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { checkEvent } from '../support/openapi-check.js';

const CAPABILITIES: ClientCapabilities = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: false,
  user_settings_object: true,
  linkifier_url_template: true,
};

for (const dialect of testDialects()) {
  describe(`linkifier and playground events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    async function fetchState(name: DevUserName, capabilities = CAPABILITIES): Promise<InitialState> {
      const user = (await getUserById(ctx.store.db, ctx.seed.realm.id, ctx.seed.users[name].id))!;
      return fetchInitialState(ctx.store.db, user, ctx.seed.realm, ['realm_linkifiers', 'realm_filters', 'realm_playgrounds'], {
        now: Math.floor(ctx.clock.now()),
        clientGravatar: false,
        includeSubscribers: true,
        capabilities,
        serverGeneration: 1,
        development: true,
      });
    }

    /** Runs the action, checks every event's shape, and folds the events into each watcher's earlier state. */
    async function verify(watchers: DevUserName[], action: () => Promise<void>): Promise<string[]> {
      const before = new Map<DevUserName, InitialState>();
      for (const name of watchers) before.set(name, await fetchState(name));
      ctx.clearEvents();
      await action();
      let id = 0;
      for (const { event } of ctx.events) checkEvent({ ...event, id: id++ });
      for (const name of watchers) {
        const user = ctx.seed.users[name];
        const old = before.get(name)!;
        const unchanged = structuredClone(old);
        const events = ctx.events.filter((d) => d.users.includes(user.id)).map((d) => structuredClone(d.event));
        applyEvents(old, events, { userId: user.id, role: user.role, includeSubscribers: true });
        assert.deepEqual(old, await fetchState(name), `state of ${name}`);
        assert.notDeepEqual(old, unchanged, `nothing changed for ${name}`);
      }
      return ctx.events.map((d) => String(d.event.type));
    }

    const linkifier = (pattern: string, url_template: string) => ({ pattern, url_template });
    let first = 0;
    let second = 0;

    it('adding linkifiers', async () => {
      const kinds = await verify(['mark', 'gus', 'olivia'], async () => {
        first = expectSuccess(await ctx.as('adam').post('/realm/filters', linkifier('#(?P<id>[0-9]+)', 'https://a.example/{id}'))).id;
        second = expectSuccess(await ctx.as('adam').post('/realm/filters', linkifier('B-(?P<id>[0-9]+)', 'https://b.example/{id}'))).id;
      });
      assert.deepEqual(kinds, ['realm_linkifiers', 'realm_linkifiers']);
    });

    it('updating, reordering and removing linkifiers', async () => {
      await verify(['mark'], async () => {
        expectSuccess(await ctx.as('adam').patch(`/realm/filters/${first}`, linkifier('T(?P<n>[0-9]+)', 'https://t.example/{n}')));
      });
      await verify(['mark'], async () => {
        expectSuccess(await ctx.as('adam').patch('/realm/linkifiers', { ordered_linkifier_ids: [second, first] }));
      });
      await verify(['mark'], async () => {
        expectSuccess(await ctx.as('adam').delete(`/realm/filters/${second}`));
      });
    });

    it('adding and removing playgrounds', async () => {
      let id = 0;
      await verify(['mark', 'gus'], async () => {
        const body = { name: 'Python', pygments_language: 'Python', url_template: 'https://py.example/{code}' };
        id = expectSuccess(await ctx.as('adam').post('/realm/playgrounds', body)).id;
      });
      await verify(['mark'], async () => {
        expectSuccess(await ctx.as('adam').delete(`/realm/playgrounds/${id}`));
      });
    });

    it('gives clients without linkifier_url_template no linkifiers, and the legacy list stays empty', async () => {
      const state = await fetchState('mark', { ...CAPABILITIES, linkifier_url_template: false });
      assert.deepEqual(state.realm_linkifiers, []);
      assert.deepEqual(state.realm_filters, []);
      const withTemplates = await fetchState('mark');
      assert.deepEqual(withTemplates.realm_linkifiers, [{ id: first, pattern: 'T(?P<n>[0-9]+)', url_template: 'https://t.example/{n}' }]);
      assert.deepEqual(withTemplates.realm_filters, []);
    });
  });
}
