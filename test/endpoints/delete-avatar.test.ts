// DELETE /users/me/avatar on every store and both storage backends: back to the default avatar,
// the stored images gone, events folded, and the organization's avatar_changes_disabled.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { avatarKey } from '../../src/actions/avatar-files.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { getUserById } from '../../src/queries/users.js';
import { gif, imagePart, postAvatar } from '../support/avatar-images.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { verifyFolding } from '../support/register-state.js';
import { openTestStorage, STORAGE_KINDS, type TestStorage } from '../support/storages.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  for (const kind of STORAGE_KINDS) {
    describe(`DELETE /users/me/avatar [${dialect}, ${kind}]`, () => {
      let ctx: TestContext;
      let files: TestStorage;
      before(async () => {
        files = await openTestStorage(kind);
        ctx = await setup(dialect, { storage: files.storage });
      });
      after(async () => {
        await ctx.close();
        await files.close();
      });

      const row = async (name: DevUserName) => (await getUserById(ctx.services.db, ctx.seed.realm.id, ctx.seed.users[name].id))!;
      const setAvatar = async (name: DevUserName) => expectSuccess(await postAvatar(ctx.app, ctx.seed.users[name], [imagePart(await gif(), 'a.gif', 'image/gif')]));

      it('returns to the default avatar, moves the version on, and removes both stored images', async () => {
        await setAvatar('mark');
        const uploaded = await row('mark');
        const key = avatarKey(ctx.seed.realm.id, uploaded.id);
        assert.ok((await files.storage.stat(key))! > 0);
        const body = expectSuccess(await ctx.as('mark').delete('/users/me/avatar', {}, undocumented));
        const after = await row('mark');
        assert.deepEqual([after.avatar_source, after.avatar_version], ['G', uploaded.avatar_version + 1]);
        assert.deepEqual(body, { result: 'success', msg: '', avatar_url: `/user_avatars/${ctx.seed.realm.id}/${after.id}.png?version=${after.avatar_version}` });
        assert.equal(await files.storage.stat(key), null);
        assert.equal(await files.storage.stat(avatarKey(ctx.seed.realm.id, uploaded.id, true)), null);
      });

      it('works (and tells everyone) even without an uploaded avatar, as the reference does', async () => {
        const before = await row('mona');
        const labels = await verifyFolding(ctx, {
          watchers: ['mona', 'gus'],
          action: async () => void expectSuccess(await ctx.as('mona').delete('/users/me/avatar', {}, undocumented)),
        });
        assert.deepEqual(labels, ['realm_user/update']);
        const url = `/user_avatars/${ctx.seed.realm.id}/${before.id}.png?version=${before.avatar_version + 1}`;
        assert.deepEqual(ctx.events[0]!.event.person, {
          user_id: before.id,
          avatar_source: 'G',
          avatar_url: url,
          avatar_url_medium: url.replace('.png?', '-medium.png?'),
          avatar_version: before.avatar_version + 1,
        });
      });

      it("folds a bot's return to the default into its owner's realm_bots", async () => {
        await setAvatar('welcomeBot');
        const labels = await verifyFolding(ctx, {
          watchers: ['olivia', 'mark'],
          action: async () => void expectSuccess(await ctx.as('welcomeBot').delete('/users/me/avatar', {}, undocumented)),
        });
        assert.deepEqual(labels, ['realm_user/update', 'realm_bot/update']);
      });

      it('follows avatar_changes_disabled: administrators and owners only', async () => {
        await setAvatar('maya');
        await setRealmSettings(ctx, { avatar_changes_disabled: true });
        try {
          for (const name of ['maya', 'mark', 'gus'] as const) {
            expectError(await ctx.as(name).delete('/users/me/avatar', {}, undocumented), 'Avatar changes are disabled in this organization.');
          }
          assert.equal((await row('maya')).avatar_source, 'U');
          for (const name of ['adam', 'olivia'] as const) expectSuccess(await ctx.as(name).delete('/users/me/avatar', {}, undocumented));
        } finally {
          await setRealmSettings(ctx, { avatar_changes_disabled: false });
        }
      });

      it('refuses anonymous and deactivated requests', async () => {
        expectError(await ctx.anonymous().delete('/users/me/avatar', {}, undocumented), 'Not logged in: API authentication or user session required', 'UNAUTHORIZED', 401);
        const { milo } = ctx.seed.users;
        await ctx.services.db.updateTable('user_profile').set({ is_active: 0 as never }).where('id', '=', milo.id).execute();
        try {
          expectError(await ctx.as('milo').delete('/users/me/avatar', {}, undocumented), 'Account is deactivated', 'UNAUTHORIZED', 401);
        } finally {
          await ctx.services.db.updateTable('user_profile').set({ is_active: 1 as never }).where('id', '=', milo.id).execute();
        }
      });
    });
  }
}
