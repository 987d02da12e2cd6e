// Stream administration events: their shapes match the reference, and an earlier POST /register
// state plus the events equals a fresh fetch for everyone involved.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateStream, type NewStreamSpec } from '../../src/actions/stream-create.js';
import { bulkAddSubscriptions } from '../../src/actions/subscriptions.js';
import type { StreamRow } from '../../src/db/schema.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { verifyFolding } from '../support/register-state.js';


for (const dialect of testDialects()) {
  describe(`stream administration events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    let counter = 0;
    async function makeStream(spec: Partial<NewStreamSpec>, subscribers: DevUserName[]): Promise<StreamRow> {
      return runSystemAction(ctx.services, async (sys) => {
        const stream = await doCreateStream(sys, ctx.seed.realm, { name: `events ${++counter}`, ...spec });
        await bulkAddSubscriptions(sys, ctx.seed.realm, [stream], subscribers.map((n) => ctx.seed.users[n]));
        return stream;
      });
    }

    /** Runs the action, checks every event's shape, and the fold for each watcher (those in `changing` must see a change, the others none). */
    async function verify(watchers: DevUserName[], action: () => Promise<void>, changing: DevUserName[] = watchers): Promise<Set<string>> {
      const labels = await verifyFolding(ctx, { watchers, action, changing, strict: true });
      return new Set(labels.map((label) => (label.includes('/') ? label : `${label}/`)));
    }

    const patch = async (who: DevUserName, stream: { id: number }, params: Record<string, unknown>) =>
      void expectSuccess(await ctx.as(who).patch(`/streams/${stream.id}`, params));

    it('folds renames, descriptions, posting policy, retention and the removal group', async () => {
      const stream = await makeStream({}, ['mark']);
      const moderators = (await ctx.services.db.selectFrom('user_group').select('id').where('name', '=', 'role:moderators').executeTakeFirstOrThrow()).id;
      const kinds = await verify(['mark', 'mona', 'olivia', 'gus'], async () => {
        await patch('olivia', stream, { new_name: 'aaa first by name', description: 'Now with **bold**' });
        await patch('olivia', stream, { stream_post_policy: 2 });
        await patch('olivia', stream, { message_retention_days: 14 });
        await patch('olivia', stream, { message_retention_days: 'unlimited' });
        await patch('olivia', stream, { can_remove_subscribers_group: moderators });
      }, ['mark', 'mona', 'olivia']);
      assert.deepEqual([...kinds], ['stream/update']);
    });

    it('folds a retention back to the realm default (a null value)', async () => {
      const stream = await makeStream({ messageRetentionDays: 5 }, ['mark']);
      await verify(['mark'], () => patch('olivia', stream, { message_retention_days: 'realm_default' }));
    });

    it('folds a public stream going private, for those who keep it and those who lose it', async () => {
      const stream = await makeStream({}, ['mark', 'adam']);
      const kinds = await verify(['mark', 'mona', 'olivia', 'gus'], () => patch('adam', stream, { is_private: true }), ['mark', 'mona', 'olivia']);
      assert.deepEqual([...kinds].sort(), ['stream/delete', 'stream/update']);
    });

    it('folds a private stream going public, for those who gain it', async () => {
      const stream = await makeStream({ inviteOnly: true }, ['mark', 'adam']);
      const kinds = await verify(['mark', 'mona', 'olivia', 'gus'], () => patch('adam', stream, { is_private: false }), ['mark', 'mona', 'olivia']);
      assert.deepEqual([...kinds].sort(), ['stream/create', 'stream/update', 'subscription/peer_add']);
    });

    it('folds a private stream going public for someone who left it before', async () => {
      const stream = await makeStream({ inviteOnly: true }, ['mark', 'mona', 'adam']);
      expectSuccess(await ctx.as('mona').delete('/users/me/subscriptions', { subscriptions: [stream.name] }));
      await verify(['mona', 'mark'], () => patch('adam', stream, { is_private: false }));
    });

    it('folds archiving a public default stream, for subscribers, onlookers and a subscribed guest', async () => {
      const stream = await makeStream({ isDefault: true }, ['mark', 'gus']);
      const kinds = await verify(['mark', 'mona', 'olivia', 'gus'], async () =>
        void expectSuccess(await ctx.as('olivia').delete(`/streams/${stream.id}`)),
      );
      assert.deepEqual([...kinds].sort(), ['default_streams/', 'stream/delete', 'subscription/remove']);
    });

    it('folds archiving a private stream, which only subscribers and administrators saw', async () => {
      const stream = await makeStream({ inviteOnly: true }, ['mark']);
      const kinds = await verify(['mark', 'mona', 'olivia'], async () =>
        void expectSuccess(await ctx.as('adam').delete(`/streams/${stream.id}`)),
      ['mark', 'olivia']);
      assert.deepEqual([...kinds].sort(), ['stream/delete', 'subscription/remove']);
    });

    it('folds history visibility of a private stream', async () => {
      const stream = await makeStream({ inviteOnly: true }, ['mark', 'adam']);
      await verify(['mark', 'mona'], () => patch('adam', stream, { history_public_to_subscribers: true }), ['mark']);
    });

    it('folds a stream becoming web-public and back, for guests', async () => {
      const stream = await makeStream({}, ['olivia', 'mark']);
      ctx.services.config.webPublicStreamsEnabled = true;
      await ctx.services.db.updateTable('realm').set({ settings: JSON.stringify({ enable_spectator_access: true }) }).execute();
      try {
        const on = await verify(['gus', 'mark'], () => patch('olivia', stream, { is_web_public: true }));
        assert.deepEqual([...on].sort(), ['stream/create', 'stream/update', 'subscription/peer_add']);
        const off = await verify(['gus', 'mark'], () => patch('olivia', stream, { is_web_public: false }));
        assert.deepEqual([...off].sort(), ['stream/delete', 'stream/update']);
      } finally {
        ctx.services.config.webPublicStreamsEnabled = false;
        await ctx.services.db.updateTable('realm').set({ settings: '{}' }).execute();
      }
    });

    it('folds default stream changes (guests are told nothing)', async () => {
      const { design } = ctx.seed.streams;
      const added = await verify(['mark', 'gus'], async () => {
        expectSuccess(await ctx.as('adam').post('/default_streams', { stream_id: design.id }));
      }, ['mark']);
      assert.deepEqual([...added], ['default_streams/']);
      await verify(['mark', 'gus'], async () => {
        expectSuccess(await ctx.as('adam').delete('/default_streams', { stream_id: design.id }));
        await patch('adam', design, { is_default_stream: true });
      }, []);
      await verify(['mark'], () => patch('adam', design, { is_default_stream: false }));
    });
  });
}
