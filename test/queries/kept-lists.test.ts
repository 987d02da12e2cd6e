// An organization's users and streams are kept in memory only while the store's counter for the
// table stands still; any change to the rows, made by any writer, is seen by the next read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { realmActiveStreams, realmUsers, realmVersion } from '../../src/queries/kept-lists.js';
import { getRealmForHost, keptRealms } from '../../src/queries/realms.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`kept organization lists [${dialect}]`, () => {
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

    it('sees a user change made straight in the store, outside any action', async () => {
      const before = await realmUsers(ctx.services.db, realmId);
      const version = await realmVersion(ctx.services.db, 'user_profile', realmId);
      const mark = ctx.seed.users.mark;
      await ctx.services.db.updateTable('user_profile').set({ full_name: 'Mark Renamed' }).where('id', '=', mark.id).execute();
      assert.equal(await realmVersion(ctx.services.db, 'user_profile', realmId), version + 1);
      const after = await realmUsers(ctx.services.db, realmId);
      assert.notEqual(after, before);
      assert.equal(after.find((u) => u.id === mark.id)?.full_name, 'Mark Renamed');
    });

    it('moves the user counter on insert and delete, and only for that organization and table', async () => {
      const version = await realmVersion(ctx.services.db, 'user_profile', realmId);
      const streams = await realmVersion(ctx.services.db, 'stream', realmId);
      const { id: _id, ...row } = ctx.seed.users.mark;
      const { id } = await ctx.services.db
        .insertInto('user_profile')
        .values({ ...row, email: 'extra@example.test', delivery_email: 'extra@example.test', api_key: 'k'.repeat(32), recipient_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      assert.equal(await realmVersion(ctx.services.db, 'user_profile', realmId), version + 1);
      assert.ok((await realmUsers(ctx.services.db, realmId)).some((u) => u.id === id));
      await ctx.services.db.deleteFrom('user_profile').where('id', '=', id).execute();
      assert.equal(await realmVersion(ctx.services.db, 'user_profile', realmId), version + 2);
      assert.ok(!(await realmUsers(ctx.services.db, realmId)).some((u) => u.id === id));
      assert.equal(await realmVersion(ctx.services.db, 'stream', realmId), streams);
      assert.equal(await realmVersion(ctx.services.db, 'user_profile', realmId + 1000), 0);
    });

    it('keeps the active streams until a stream row changes', async () => {
      const first = await realmActiveStreams(ctx.services.db, realmId);
      assert.deepEqual(first.map((s) => s.name).sort(), ['design', 'engineering', 'general', 'leadership']);
      assert.equal(await realmActiveStreams(ctx.services.db, realmId), first);
      const design = ctx.seed.streams.design;
      await ctx.services.db.updateTable('stream').set({ description: 'Changed here' }).where('id', '=', design.id).execute();
      const changed = await realmActiveStreams(ctx.services.db, realmId);
      assert.equal(changed.find((s) => s.id === design.id)?.description, 'Changed here');
      await ctx.services.db.updateTable('stream').set({ deactivated: 1 }).where('id', '=', design.id).execute();
      assert.ok(!(await realmActiveStreams(ctx.services.db, realmId)).some((s) => s.id === design.id));
    });

    it('keeps the organizations until a realm row changes, with one counter for them all', async () => {
      const host = new URL(ctx.seed.realm.url).host;
      const first = await keptRealms(ctx.services.db);
      assert.equal(await keptRealms(ctx.services.db), first);
      assert.equal((await getRealmForHost(ctx.services.db, host))?.id, realmId);
      const version = await realmVersion(ctx.services.db, 'realm', 0);
      await ctx.services.db.updateTable('realm').set({ name: 'Renamed Here' }).where('id', '=', realmId).execute();
      assert.equal(await realmVersion(ctx.services.db, 'realm', 0), version + 1);
      assert.notEqual(await keptRealms(ctx.services.db), first);
      assert.equal((await getRealmForHost(ctx.services.db, host.toUpperCase()))?.name, 'Renamed Here');
      // The only organization answers for any host.
      assert.equal((await getRealmForHost(ctx.services.db, 'elsewhere.example'))?.id, realmId);
    });

    it('shares rows that cannot be changed by a reader', async () => {
      const users = await realmUsers(ctx.services.db, realmId);
      assert.throws(() => {
        (users[0] as { full_name: string }).full_name = 'changed';
      }, TypeError);
      assert.throws(() => (users as unknown as unknown[]).pop(), TypeError);
      const streams = await realmActiveStreams(ctx.services.db, realmId);
      assert.throws(() => (streams as unknown as unknown[]).push(streams[0]), TypeError);
    });
  });
}
