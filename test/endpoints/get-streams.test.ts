import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import { clientFor, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /streams [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await setup(dialect);
      // A web-public stream, and an archived one that never shows.
      const { design } = ctx.seed.streams;
      await ctx.services.db.updateTable('stream').set({ is_web_public: 1 }).where('id', '=', design.id).execute();
      expectSuccess(await ctx.as('adam').post('/users/me/subscriptions', { subscriptions: [{ name: 'archive' }] }));
      await ctx.services.db.updateTable('stream').set({ deactivated: 1 }).where('name', '=', 'archive').execute();
    });
    after(() => ctx.close());

    const names = (body: Record<string, any>) => body.streams.map((s: any) => s.name);

    it('lists public streams and subscribed private ones, by name', async () => {
      assert.deepEqual(names(expectSuccess(await ctx.as('mark').get('/streams'))), ['design', 'engineering', 'general']);
      assert.deepEqual(names(expectSuccess(await ctx.as('olivia').get('/streams'))), ['design', 'engineering', 'general', 'leadership']);
      // Administrators do not see private streams they are not on without include_all_active.
      await ctx.services.db.updateTable('user_profile').set({ role: 200 }).where('id', '=', ctx.seed.users.mona.id).execute();
      assert.deepEqual(names(expectSuccess(await ctx.as('mona').get('/streams'))), ['design', 'engineering', 'general']);
      await ctx.services.db.updateTable('user_profile').set({ role: 400 }).where('id', '=', ctx.seed.users.mona.id).execute();
    });

    it('gives the stream fields of the era', async () => {
      const body = expectSuccess(await ctx.as('olivia').get('/streams'));
      const leadership = body.streams.find((s: any) => s.name === 'leadership');
      const { streams, users } = ctx.seed;
      assert.deepEqual(leadership, {
        stream_id: streams.leadership.id,
        name: 'leadership',
        description: 'Owners and administrators.',
        rendered_description: '<p>Owners and administrators.</p>',
        date_created: streams.leadership.date_created,
        creator_id: users.olivia.id,
        invite_only: true,
        is_web_public: false,
        history_public_to_subscribers: true,
        first_message_id: null,
        message_retention_days: null,
        stream_post_policy: 1,
        is_announcement_only: false,
        can_remove_subscribers_group: streams.leadership.can_remove_subscribers_group_id,
        stream_weekly_traffic: null,
      });
      assert.equal(typeof leadership.can_remove_subscribers_group, 'number');
    });

    it('limits guests to their streams and, on request, web-public ones', async () => {
      assert.deepEqual(names(expectSuccess(await ctx.as('gus').get('/streams'))), []);
      assert.deepEqual(names(expectSuccess(await ctx.as('gus').get('/streams', { include_web_public: true }))), ['design']);
    });

    it('combines the sources as asked', async () => {
      assert.deepEqual(names(expectSuccess(await ctx.as('mona').get('/streams', { include_public: false }))), ['design', 'general']);
      assert.deepEqual(names(expectSuccess(await ctx.as('olivia').get('/streams', { include_subscribed: false }))), [
        'design',
        'engineering',
        'general',
      ]);
      assert.deepEqual(names(expectSuccess(await ctx.as('mark').get('/streams', { include_public: false, include_subscribed: false }))), []);
    });

    it('lists every active stream to administrators with include_all_active', async () => {
      const body = expectSuccess(await ctx.as('adam').get('/streams', { include_all_active: true }));
      assert.deepEqual(names(body), ['design', 'engineering', 'general', 'leadership']);
      expectError(await ctx.as('maya').get('/streams', { include_all_active: true }), 'User not authorized for this query');
    });

    it('marks default streams with include_default only', async () => {
      const plain = expectSuccess(await ctx.as('mark').get('/streams'));
      assert.equal('is_default' in plain.streams[0], false);
      const body = expectSuccess(await ctx.as('mark').get('/streams', { include_default: true }));
      assert.deepEqual(
        body.streams.map((s: any) => [s.name, s.is_default]),
        [
          ['design', false],
          ['engineering', false],
          ['general', true],
        ],
      );
    });

    it("adds a bot owner's streams with include_owner_subscribed", async () => {
      const bot = await runSystemAction(ctx.services, (sys) =>
        doCreateUser(sys, ctx.seed.realm, { email: 'lead-bot@confab.test', fullName: 'Lead Bot', isBot: true, botOwnerId: ctx.seed.users.olivia.id }),
      );
      const client = clientFor(ctx.app, bot);
      assert.deepEqual(names(expectSuccess(await client.get('/streams', { include_public: false }))), []);
      assert.deepEqual(
        names(expectSuccess(await client.get('/streams', { include_public: false, include_owner_subscribed: true }))),
        ['engineering', 'general', 'leadership'],
      );
      // For people the flag changes nothing.
      assert.deepEqual(names(expectSuccess(await ctx.as('mark').get('/streams', { include_public: false, include_owner_subscribed: true }))), [
        'engineering',
        'general',
      ]);
    });

    it('rejects non-boolean flags', async () => {
      expectError(await ctx.as('mark').get('/streams', { include_public: 1 }), 'include_public is not a boolean');
    });
  });
}
