import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateStream } from '../../src/actions/stream-create.js';
import { bulkAddSubscriptions } from '../../src/actions/subscriptions.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { checkEvent } from '../support/openapi-check.js';

const LINK = /^http:\/\/confab\.test\/join\/([a-z0-9]{24})\/$/;

for (const dialect of testDialects()) {
  describe(`POST /invites/multiuse [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const inviteByLink = async (link: string) => {
      const key = LINK.exec(link)?.[1];
      assert.ok(key, `a join link: ${link}`);
      return ctx.services.db.selectFrom('multiuse_invite').selectAll().where('confirmation_key', '=', key).executeTakeFirstOrThrow();
    };
    const streamsOf = async (inviteId: number) =>
      (await ctx.services.db.selectFrom('multiuse_invite_stream').select('stream_id').where('invite_id', '=', inviteId).orderBy('stream_id').execute()).map(
        (r) => r.stream_id,
      );
    const count = async () => Number((await ctx.services.db.selectFrom('multiuse_invite').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    it('makes a member link good for ten days by default, and tells the administrators', async () => {
      const { olivia, adam } = ctx.seed.users;
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('adam').post('/invites/multiuse'));
      assert.deepEqual(Object.keys(body).sort(), ['invite_link', 'msg', 'result']);
      const invite = await inviteByLink(body.invite_link);
      const now = ctx.clock.now();
      assert.deepEqual(
        { realm: invite.realm_id, by: invite.referred_by_id, as: invite.invited_as, sent: invite.date_sent, expiry: invite.expiry_date, status: invite.status },
        { realm: ctx.seed.realm.id, by: adam.id, as: 400, sent: now, expiry: now + 14_400 * 60, status: 0 },
      );
      assert.deepEqual(await streamsOf(invite.id), []);
      assert.deepEqual(ctx.events.map((d) => ({ event: d.event, users: [...d.users].sort((a, b) => a - b) })), [
        { event: { type: 'invites_changed' }, users: [olivia.id, adam.id].sort((a, b) => a - b) },
      ]);
      checkEvent({ ...ctx.events[0]!.event, id: 0 });
    });

    it('takes a role, streams and a link that never expires', async () => {
      const { engineering, leadership } = ctx.seed.streams;
      const body = expectSuccess(
        await ctx.as('adam').post('/invites/multiuse', { invite_as: 600, stream_ids: [leadership.id, engineering.id, engineering.id], invite_expires_in_minutes: null }),
      );
      const invite = await inviteByLink(body.invite_link);
      assert.equal(invite.invited_as, 600);
      assert.equal(invite.expiry_date, null);
      assert.deepEqual(await streamsOf(invite.id), [engineering.id, leadership.id].sort((a, b) => a - b));
      const shortLived = await inviteByLink(expectSuccess(await ctx.as('adam').post('/invites/multiuse', { invite_expires_in_minutes: 30 })).invite_link);
      assert.equal(shortLived.expiry_date, ctx.clock.now() + 1800);
      // Administrators may hand out the roles above member; only owners the owner role.
      for (const role of [200, 300]) {
        assert.equal((await inviteByLink(expectSuccess(await ctx.as('adam').post('/invites/multiuse', { invite_as: role })).invite_link)).invited_as, role);
      }
      assert.equal((await inviteByLink(expectSuccess(await ctx.as('olivia').post('/invites/multiuse', { invite_as: 100 })).invite_link)).invited_as, 100);
      // Every link is new.
      const again = expectSuccess(await ctx.as('adam').post('/invites/multiuse')).invite_link;
      assert.notEqual(again, body.invite_link);
    });

    it('is for create_multiuse_invite_group only: administrators, not moderators, members, guests or bots', async () => {
      const before = await count();
      ctx.clearEvents();
      expectError(await ctx.as('maya').post('/invites/multiuse'), 'Insufficient permission');
      expectError(await ctx.as('mark').post('/invites/multiuse'), 'Insufficient permission');
      expectError(await ctx.as('gus').post('/invites/multiuse'), 'Not allowed for guest users');
      expectError(await ctx.as('welcomeBot').post('/invites/multiuse'), 'This endpoint does not accept bot requests.');
      expectError(await ctx.as('adam').post('/invites/multiuse', { invite_as: 100 }), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      // The register state names the group these rights follow.
      const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));
      const admins = await ctx.services.db.selectFrom('user_group').select('id').where('realm_id', '=', ctx.seed.realm.id).where('name', '=', 'role:administrators').executeTakeFirstOrThrow();
      assert.equal(state.realm_create_multiuse_invite_group, admins.id);
      assert.equal(await count(), before);
      assert.deepEqual(ctx.events, []);
    });

    it('refuses streams the inviter cannot reach, and malformed parameters, creating nothing', async () => {
      const before = await count();
      const secret = await runSystemAction(ctx.services, async (sys) => {
        const stream = await doCreateStream(sys, ctx.seed.realm, { name: 'secret plans', inviteOnly: true });
        await bulkAddSubscriptions(sys, ctx.seed.realm, [stream], [ctx.seed.users.mark]);
        return stream;
      });
      const { general } = ctx.seed.streams;
      ctx.clearEvents();
      const adam = ctx.as('adam');
      expectError(await adam.post('/invites/multiuse', { stream_ids: [general.id, 99999] }), 'Invalid channel ID 99999. No invites were sent.');
      // A private stream the administrator is not on cannot be named.
      expectError(await adam.post('/invites/multiuse', { stream_ids: [secret.id] }), `Invalid channel ID ${secret.id}. No invites were sent.`);
      expectError(await adam.post('/invites/multiuse', { stream_ids: 'general' }), 'stream_ids is not valid JSON');
      expectError(await adam.post('/invites/multiuse', { stream_ids: [1.5] }), 'stream_ids[0] is not an integer');
      expectError(await adam.post('/invites/multiuse', { stream_ids: { a: 1 } }), 'stream_ids is not a list');
      expectError(await adam.post('/invites/multiuse', { invite_as: 500 }), 'Invalid invite_as');
      expectError(await adam.post('/invites/multiuse', { invite_as: 'member' }), 'invite_as is not valid JSON');
      expectError(await adam.post('/invites/multiuse', { invite_expires_in_minutes: '10 days' }), 'invite_expires_in_minutes is not valid JSON');
      expectError(await adam.post('/invites/multiuse', { invite_expires_in_minutes: 1.5 }), 'invite_expires_in_minutes is not an integer');
      expectError(await adam.post('/invites/multiuse', { invite_expires_in_minutes: 10_000_000_000 }), 'invite_expires_in_minutes is too large');
      assert.equal(await count(), before);
      assert.deepEqual(ctx.events, []);
    });
  });
}
