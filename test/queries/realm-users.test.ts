// The organization's user list is kept in memory only while the store's counter for its users
// stands still; any change to the rows, made by any writer, is seen by the next read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { realmUsers, usersVersion } from '../../src/queries/realm-users.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`realm user list [${dialect}]`, () => {
    let ctx: TestContext;
    let realmId: number;
    before(async () => {
      ctx = await setup(dialect);
      realmId = ctx.seed.realm.id;
    });
    after(() => ctx.close());

    it('lists every user by id and hands back the same list while nothing changes', async () => {
      const first = await realmUsers(ctx.services.db, realmId);
      const ids = first.map((u) => u.id);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
      assert.ok(ids.includes(ctx.seed.users.olivia.id));
      assert.equal(await realmUsers(ctx.services.db, realmId), first);
    });

    it('sees a change made straight in the store, outside any action', async () => {
      const before = await realmUsers(ctx.services.db, realmId);
      const version = await usersVersion(ctx.services.db, realmId);
      const mark = ctx.seed.users.mark;
      await ctx.services.db.updateTable('user_profile').set({ full_name: 'Mark Renamed' }).where('id', '=', mark.id).execute();
      assert.equal(await usersVersion(ctx.services.db, realmId), version + 1);
      const after = await realmUsers(ctx.services.db, realmId);
      assert.notEqual(after, before);
      assert.equal(after.find((u) => u.id === mark.id)?.full_name, 'Mark Renamed');
    });

    it('moves the counter on insert and delete, and only for that organization', async () => {
      const version = await usersVersion(ctx.services.db, realmId);
      const template = ctx.seed.users.mark;
      const { id: _id, ...row } = template;
      const { id } = await ctx.services.db
        .insertInto('user_profile')
        .values({ ...row, email: 'extra@example.test', delivery_email: 'extra@example.test', api_key: 'k'.repeat(32), recipient_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      assert.equal(await usersVersion(ctx.services.db, realmId), version + 1);
      assert.ok((await realmUsers(ctx.services.db, realmId)).some((u) => u.id === id));
      await ctx.services.db.deleteFrom('user_profile').where('id', '=', id).execute();
      assert.equal(await usersVersion(ctx.services.db, realmId), version + 2);
      assert.ok(!(await realmUsers(ctx.services.db, realmId)).some((u) => u.id === id));
      assert.equal(await usersVersion(ctx.services.db, realmId + 1000), 0);
    });

    it('shares rows that cannot be changed by a reader', async () => {
      const users = await realmUsers(ctx.services.db, realmId);
      assert.throws(() => {
        (users[0] as { full_name: string }).full_name = 'changed';
      }, TypeError);
      assert.throws(() => (users as unknown as unknown[]).pop(), TypeError);
    });
  });
}
