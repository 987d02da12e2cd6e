import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateMultiuseInviteLink } from '../../src/actions/invites.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const keyOf = (link: string) => /\/join\/([a-z0-9]{24})\/$/.exec(link)![1]!;

for (const dialect of testDialects()) {
  describe(`GET /invites [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const idOf = async (link: string) =>
      (await ctx.services.db.selectFrom('multiuse_invite').select('id').where('confirmation_key', '=', keyOf(link)).executeTakeFirstOrThrow()).id;
    const listed = async (who: 'olivia' | 'adam' | 'mark') => expectSuccess(await ctx.as(who).get('/invites')).invites as Array<Record<string, unknown>>;

    it('lists nothing before any link is made', async () => {
      assert.deepEqual(await listed('adam'), []);
    });

    it('shows administrators every usable link of the realm, and others only their own', async () => {
      const { olivia, adam, mark } = ctx.seed.users;
      const start = ctx.clock.now();
      const adams = expectSuccess(await ctx.as('adam').post('/invites/multiuse', { invite_as: 600 })).invite_link;
      ctx.clock.advance(5);
      const olivias = expectSuccess(await ctx.as('olivia').post('/invites/multiuse', { invite_expires_in_minutes: null, invite_as: 100 })).invite_link;
      // A link made by someone who may no longer make links (an administrator since demoted, say).
      const marks = await runSystemAction(ctx.services, (sys) =>
        doCreateMultiuseInviteLink(sys, ctx.seed.realm, mark, { invitedAs: 400, expiresInMinutes: 60 }, []),
      );
      const all = await listed('adam');
      assert.deepEqual(all, [
        { id: await idOf(adams), invited_by_user_id: adam.id, invited: start, expiry_date: start + 864_000, invited_as: 600, link_url: adams, is_multiuse: true },
        { id: await idOf(olivias), invited_by_user_id: olivia.id, invited: start + 5, expiry_date: null, invited_as: 100, link_url: olivias, is_multiuse: true },
        { id: await idOf(marks), invited_by_user_id: mark.id, invited: start + 5, expiry_date: start + 5 + 3600, invited_as: 400, link_url: marks, is_multiuse: true },
      ]);
      assert.deepEqual(await listed('olivia'), all);
      assert.deepEqual(await listed('mark'), [all[2]]);
      expectError(await ctx.as('gus').get('/invites'), 'Not allowed for guest users');
      expectError(await ctx.as('welcomeBot').get('/invites'), 'This endpoint does not accept bot requests.');
    });

    it('leaves out links once expired (good through their expiry second) and once revoked', async () => {
      const all = await listed('adam');
      const marks = all[2]!;
      ctx.clock.set(Number(marks.expiry_date));
      assert.equal((await listed('adam')).length, 3);
      ctx.clock.advance(1);
      assert.deepEqual((await listed('adam')).map((i) => i.id), [all[0]!.id, all[1]!.id]);
      assert.deepEqual(await listed('mark'), []);
      expectSuccess(await ctx.as('olivia').delete(`/invites/multiuse/${all[1]!.id}`));
      assert.deepEqual((await listed('adam')).map((i) => i.id), [all[0]!.id]);
      ctx.clock.set(Number(all[0]!.expiry_date) + 1);
      assert.deepEqual(await listed('adam'), []);
    });

    it("ends a deactivated user's links at once and tells the administrators", async () => {
      const { olivia, adam } = ctx.seed.users;
      const link = expectSuccess(await ctx.as('adam').post('/invites/multiuse', { invite_expires_in_minutes: null })).invite_link;
      const id = await idOf(link);
      assert.deepEqual((await listed('olivia')).map((i) => i.id), [id]);
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').delete(`/users/${adam.id}`));
      assert.deepEqual((await listed('olivia')).map((i) => i.id), []);
      const row = await ctx.services.db.selectFrom('multiuse_invite').select('expiry_date').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.expiry_date, ctx.clock.now() - 1);
      const notices = ctx.events.filter((d) => d.event.type === 'invites_changed');
      assert.deepEqual(notices.map((d) => d.users), [[olivia.id]]);
      // The join page says so too.
      const page = await ctx.app.inject({ method: 'GET', url: `/join/${keyOf(link)}/`, headers: { host: 'confab.test' } });
      assert.equal(page.statusCode, 404);
      assert.match(page.body, /The confirmation link has expired or been deactivated\./);
    });
  });
}
