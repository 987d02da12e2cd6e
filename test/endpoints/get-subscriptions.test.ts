import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STREAM_COLORS } from '../../src/actions/subscriptions.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /users/me/subscriptions [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it("lists the requester's subscriptions by stream name, with every field of the era", async () => {
      const body = expectSuccess(await ctx.as('mark').get('/users/me/subscriptions'));
      assert.deepEqual(
        body.subscriptions.map((s: any) => s.name),
        ['engineering', 'general'],
      );
      const { engineering } = ctx.seed.streams;
      const sub = body.subscriptions[0];
      assert.deepEqual(sub, {
        stream_id: engineering.id,
        name: 'engineering',
        description: 'Building **Confab**.',
        rendered_description: engineering.rendered_description,
        date_created: engineering.date_created,
        creator_id: ctx.seed.users.olivia.id,
        invite_only: false,
        is_web_public: false,
        history_public_to_subscribers: true,
        first_message_id: null,
        message_retention_days: null,
        stream_post_policy: 1,
        is_announcement_only: false,
        can_remove_subscribers_group: engineering.can_remove_subscribers_group_id,
        stream_weekly_traffic: null,
        color: sub.color,
        is_muted: false,
        in_home_view: true,
        pin_to_top: false,
        desktop_notifications: null,
        audible_notifications: null,
        push_notifications: null,
        email_notifications: null,
        wildcard_mentions_notify: null,
      });
      assert.equal(STREAM_COLORS.includes(sub.color), true);
      // Each of a user's subscriptions gets its own colour.
      assert.notEqual(body.subscriptions[0].color, body.subscriptions[1].color);
    });

    it('includes the subscriber lists on request', async () => {
      const body = expectSuccess(await ctx.as('olivia').get('/users/me/subscriptions', { include_subscribers: true }));
      const leadership = body.subscriptions.find((s: any) => s.name === 'leadership');
      const { olivia, adam } = ctx.seed.users;
      assert.deepEqual(leadership.subscribers, [olivia.id, adam.id].sort((a, b) => a - b));
    });

    it('reflects muting and notification choices', async () => {
      const { mark } = ctx.seed.users;
      await ctx.services.db
        .updateTable('subscription')
        .set({ is_muted: 1, pin_to_top: 1, desktop_notifications: 1, push_notifications: 0 })
        .where('user_id', '=', mark.id)
        .where('recipient_id', '=', ctx.seed.streams.general.recipient_id!)
        .execute();
      const general = expectSuccess(await ctx.as('mark').get('/users/me/subscriptions')).subscriptions[1];
      assert.equal(general.is_muted, true);
      assert.equal(general.in_home_view, false);
      assert.equal(general.pin_to_top, true);
      assert.equal(general.desktop_notifications, true);
      assert.equal(general.push_notifications, false);
      assert.equal(general.email_notifications, null);
    });

    it('lists nothing for a guest on no stream, and leaves out archived streams', async () => {
      assert.deepEqual(expectSuccess(await ctx.as('gus').get('/users/me/subscriptions')).subscriptions, []);
      await ctx.services.db.updateTable('stream').set({ deactivated: 1 }).where('id', '=', ctx.seed.streams.design.id).execute();
      const names = expectSuccess(await ctx.as('mona').get('/users/me/subscriptions')).subscriptions.map((s: any) => s.name);
      assert.deepEqual(names, ['general']);
    });

    it('rejects a non-boolean include_subscribers', async () => {
      expectError(await ctx.as('mark').get('/users/me/subscriptions', { include_subscribers: 'maybe' }), 'include_subscribers is not valid JSON');
    });
  });
}
