// A new organization's settings, as the reference's realm creation sets them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateRealm } from '../../src/actions/realm-create.js';
import { realmSettings } from '../../src/lib/realm-settings.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`creating an organization [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const create = (stringId: string, inviteRequired?: boolean) =>
      runSystemAction(ctx.services, (system) =>
        doCreateRealm(system, {
          name: stringId,
          url: `http://${stringId}.confab.test`,
          stringId,
          owner: { email: `owner@${stringId}.confab.test`, fullName: 'Owner' },
          withGeneralStream: false,
          ...(inviteRequired === undefined ? {} : { inviteRequired }),
        }),
      );

    it('turns read receipts on for an organization that requires invitations, the default', async () => {
      const { realm } = await create('closed');
      assert.deepEqual(JSON.parse(realm.settings), { enable_read_receipts: true });
      const settings = realmSettings(realm);
      assert.deepEqual([settings.invite_required, settings.enable_read_receipts], [true, true]);
      // The dev organization is made the same way, and says so at registration.
      const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));
      assert.deepEqual([state.realm_invite_required, state.realm_enable_read_receipts], [true, true]);
    });

    it('leaves read receipts off for an organization anyone may join', async () => {
      const { realm } = await create('open', false);
      assert.deepEqual(JSON.parse(realm.settings), { invite_required: false });
      const settings = realmSettings(realm);
      assert.deepEqual([settings.invite_required, settings.enable_read_receipts], [false, false]);
    });

    it('keeps what it stored in the row', async () => {
      const { realm } = await create('stored');
      const row = await ctx.services.db.selectFrom('realm').select('settings').where('id', '=', realm.id).executeTakeFirstOrThrow();
      assert.equal(row.settings, realm.settings);
    });
  });
}
