import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateMultiuseInviteLink } from '../../src/actions/invites.js';
import { expectError, expectSuccess } from '../support/client.js';
import { createOtherRealm, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { checkEvent } from '../support/openapi-check.js';

for (const dialect of testDialects()) {
  describe(`DELETE /invites/multiuse/{invite_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    /** A new link of `who`, by id. */
    const invite = async (who: 'olivia' | 'adam', params: Record<string, unknown> = {}) => {
      const link = expectSuccess(await ctx.as(who).post('/invites/multiuse', params)).invite_link as string;
      const key = /\/join\/([a-z0-9]{24})\/$/.exec(link)![1]!;
      return (await ctx.services.db.selectFrom('multiuse_invite').select('id').where('confirmation_key', '=', key).executeTakeFirstOrThrow()).id;
    };
    const statusOf = async (id: number) =>
      (await ctx.services.db.selectFrom('multiuse_invite').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

    it('revokes a link for its creator, tells the administrators and the creator, and only once', async () => {
      const { olivia, adam } = ctx.seed.users;
      const id = await invite('adam');
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('adam').delete(`/invites/multiuse/${id}`));
      assert.deepEqual(Object.keys(body).sort(), ['msg', 'result']);
      assert.equal(await statusOf(id), 1);
      assert.deepEqual(ctx.events.map((d) => ({ event: d.event, users: [...d.users].sort((a, b) => a - b) })), [
        { event: { type: 'invites_changed' }, users: [olivia.id, adam.id].sort((a, b) => a - b) },
      ]);
      checkEvent({ ...ctx.events[0]!.event, id: 0 });
      ctx.clearEvents();
      expectError(await ctx.as('adam').delete(`/invites/multiuse/${id}`), 'Invitation has already been revoked');
      assert.deepEqual(ctx.events, []);
    });

    it("lets administrators revoke others' links, owners' links only for owners", async () => {
      const adams = await invite('adam', { invite_as: 600 });
      expectSuccess(await ctx.as('olivia').delete(`/invites/multiuse/${adams}`));
      assert.equal(await statusOf(adams), 1);
      const ownerLink = await invite('olivia', { invite_as: 100 });
      expectError(await ctx.as('adam').delete(`/invites/multiuse/${ownerLink}`), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      assert.equal(await statusOf(ownerLink), 0);
      const olivias = await invite('olivia');
      expectSuccess(await ctx.as('adam').delete(`/invites/multiuse/${olivias}`));
    });

    it('refuses others: members need to be administrators, guests and bots are refused outright', async () => {
      const { mark } = ctx.seed.users;
      const id = await invite('adam');
      expectError(await ctx.as('mark').delete(`/invites/multiuse/${id}`), 'Must be an organization administrator');
      expectError(await ctx.as('maya').delete(`/invites/multiuse/${id}`), 'Must be an organization administrator');
      expectError(await ctx.as('gus').delete(`/invites/multiuse/${id}`), 'Not allowed for guest users');
      expectError(await ctx.as('welcomeBot').delete(`/invites/multiuse/${id}`), 'This endpoint does not accept bot requests.');
      assert.equal(await statusOf(id), 0);
      // A member may revoke a link of their own (made while they were an administrator, say).
      const marks = await runSystemAction(ctx.services, (sys) =>
        doCreateMultiuseInviteLink(sys, ctx.seed.realm, mark, { invitedAs: 400, expiresInMinutes: null }, []),
      );
      const markId = (await ctx.services.db.selectFrom('multiuse_invite').select('id').where('confirmation_key', '=', marks.split('/')[4]!).executeTakeFirstOrThrow()).id;
      expectSuccess(await ctx.as('mark').delete(`/invites/multiuse/${markId}`));
      assert.equal(await statusOf(markId), 1);
    });

    it("knows no such invitation: unknown ids and other organizations' links", async () => {
      expectError(await ctx.as('adam').delete('/invites/multiuse/99999'), 'No such invitation');
      const { realm, owner } = await createOtherRealm(ctx, { email: 'boss@other.test', fullName: 'Other Boss' });
      const elsewhere = await runSystemAction(ctx.services, (sys) =>
        doCreateMultiuseInviteLink(sys, realm, owner, { invitedAs: 400, expiresInMinutes: null }, []),
      );
      const id = (await ctx.services.db.selectFrom('multiuse_invite').select('id').where('confirmation_key', '=', elsewhere.split('/')[4]!).executeTakeFirstOrThrow()).id;
      expectError(await ctx.as('olivia').delete(`/invites/multiuse/${id}`), 'No such invitation');
      assert.equal(await statusOf(id), 0);
      // An expired link can still be revoked (and stays out of every list either way).
      const expiring = await invite('adam', { invite_expires_in_minutes: 1 });
      ctx.clock.advance(120);
      expectSuccess(await ctx.as('adam').delete(`/invites/multiuse/${expiring}`));
    });
  });
}
