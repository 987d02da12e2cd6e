import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /users/me/subscriptions/properties [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const change = (subscription_data: unknown) => ctx.as('mark').post('/users/me/subscriptions/properties', { subscription_data });
    const subscription = async (streamId: number) =>
      (expectSuccess(await ctx.as('mark').get('/users/me/subscriptions')).subscriptions as Array<Record<string, unknown>>).find(
        (s) => s.stream_id === streamId,
      )!;

    it('changes colour, pinning and notification overrides, one update event each', async () => {
      const { mark } = ctx.seed.users;
      const general = ctx.seed.streams.general.id;
      ctx.clearEvents();
      expectSuccess(
        await change([
          { stream_id: general, property: 'color', value: '#a1b2c3' },
          { stream_id: general, property: 'pin_to_top', value: true },
          { stream_id: general, property: 'desktop_notifications', value: true },
          { stream_id: general, property: 'audible_notifications', value: false },
          { stream_id: general, property: 'push_notifications', value: true },
          { stream_id: general, property: 'email_notifications', value: false },
          { stream_id: general, property: 'wildcard_mentions_notify', value: false },
        ]),
      );
      const sub = await subscription(general);
      assert.deepEqual(
        [sub.color, sub.pin_to_top, sub.desktop_notifications, sub.audible_notifications, sub.push_notifications, sub.email_notifications, sub.wildcard_mentions_notify],
        ['#a1b2c3', true, true, false, true, false, false],
      );
      assert.deepEqual(
        ctx.events.map((d) => [d.users, d.event]),
        [
          ['color', '#a1b2c3'],
          ['pin_to_top', true],
          ['desktop_notifications', true],
          ['audible_notifications', false],
          ['push_notifications', true],
          ['email_notifications', false],
          ['wildcard_mentions_notify', false],
        ].map(([property, value]) => [[mark.id], { type: 'subscription', op: 'update', stream_id: general, property, value }]),
      );
    });

    it('takes null as "inherit the user default" for notification overrides', async () => {
      const general = ctx.seed.streams.general.id;
      ctx.clearEvents();
      expectSuccess(await change([{ stream_id: general, property: 'desktop_notifications', value: null }]));
      assert.equal((await subscription(general)).desktop_notifications, null);
      assert.deepEqual(ctx.events[0]!.event, { type: 'subscription', op: 'update', stream_id: general, property: 'desktop_notifications', value: null });
      expectError(await change([{ stream_id: general, property: 'pin_to_top', value: null }]), 'pin_to_top is not a boolean');
    });

    it('mutes through is_muted or the legacy in_home_view, announcing both', async () => {
      const general = ctx.seed.streams.general.id;
      const updates = () => ctx.events.map((d) => [d.event.property, d.event.value]);
      ctx.clearEvents();
      expectSuccess(await change([{ stream_id: general, property: 'is_muted', value: true }]));
      assert.deepEqual(updates(), [['in_home_view', false], ['is_muted', true]]);
      let sub = await subscription(general);
      assert.deepEqual([sub.is_muted, sub.in_home_view], [true, false]);
      ctx.clearEvents();
      expectSuccess(await change([{ stream_id: general, property: 'in_home_view', value: true }]));
      assert.deepEqual(updates(), [['in_home_view', true], ['is_muted', false]]);
      sub = await subscription(general);
      assert.deepEqual([sub.is_muted, sub.in_home_view], [false, true]);
    });

    it('refuses unknown properties, bad values, and streams the user is not subscribed to, changing nothing', async () => {
      const { general, design, leadership } = ctx.seed.streams;
      ctx.clearEvents();
      expectError(await change([{ stream_id: general.id, property: 'name', value: 'x' }]), 'Unknown subscription property: name');
      expectError(await change([{ stream_id: general.id, property: 'color', value: 'red' }]), 'color is not a valid hex color code');
      expectError(await change([{ stream_id: general.id, property: 'color', value: true }]), 'color is not a string');
      expectError(await change([{ stream_id: general.id, property: 'is_muted', value: 'yes' }]), 'is_muted is not a boolean');
      expectError(await change([{ stream_id: 99999, property: 'is_muted', value: true }]), 'Invalid channel ID');
      expectError(await change([{ stream_id: leadership.id, property: 'is_muted', value: true }]), 'Invalid channel ID');
      expectError(
        await change([
          { stream_id: general.id, property: 'pin_to_top', value: false },
          { stream_id: design.id, property: 'is_muted', value: true },
        ]),
        `Not subscribed to channel ID ${design.id}`,
      );
      assert.deepEqual(ctx.events, []);
      assert.equal((await subscription(general.id)).pin_to_top, true);
    });

    it('checks the shape of the list', async () => {
      const general = ctx.seed.streams.general.id;
      expectError(await change([{ stream_id: general, property: 'color' }]), 'Invalid subscription_data[0]["value"]');
      expectError(await change([{ stream_id: 'x', property: 'color', value: '#fff' }]), 'subscription_data[0]["stream_id"] is not an integer');
      expectError(await change({}), 'subscription_data is not a list');
      expectError(await ctx.as('mark').post('/users/me/subscriptions/properties', {}), "Missing 'subscription_data' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('reports parameters it does not know', async () => {
      const general = ctx.seed.streams.general.id;
      const body = expectSuccess(
        await ctx.as('mark').post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: general, property: 'color', value: '#fff' }],
          bogus: 1,
        }),
      );
      assert.deepEqual(body.ignored_parameters_unsupported, ['bogus']);
    });
  });
}
