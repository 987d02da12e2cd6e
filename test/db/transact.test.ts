import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/db/connect.js';
import { withTransaction } from '../../src/db/transaction.js';
import { freshStore, testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`store transactions [${dialect}]`, () => {
    let store: Store;
    before(async () => (store = await freshStore(dialect)));
    after(() => store.close());

    const addRealm = (name: string) =>
      store.transact(async (tx) => {
        await tx.insertInto('realm').values({ string_id: name, name, description: '', url: `http://${name}.test`, date_created: 0, deactivated: 0, settings: '{}' }).execute();
        if (name.startsWith('bad')) throw new Error(`refused ${name}`);
        return name;
      });
    const names = async () => (await store.db.selectFrom('realm').select('string_id').orderBy('string_id').execute()).map((r) => r.string_id);

    it('commits concurrent actions, and rolls back only the one that failed', async () => {
      const results = await Promise.allSettled(['a1', 'a2', 'bad1', 'a3', 'a4', 'bad2', 'a5'].map(addRealm));
      assert.deepEqual(
        results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
        ['a1', 'a2', 'refused bad1', 'a3', 'a4', 'refused bad2', 'a5'],
      );
      assert.deepEqual(await names(), ['a1', 'a2', 'a3', 'a4', 'a5']);
    });

    it('keeps a failing action from leaving anything behind when it runs alone', async () => {
      await assert.rejects(addRealm('bad3'), /refused bad3/);
      assert.deepEqual(await names(), ['a1', 'a2', 'a3', 'a4', 'a5']);
    });

    it('rejects an action whose statement fails, and goes on with the next', async () => {
      const duplicate = addRealm('a1');
      const fine = addRealm('b1');
      await assert.rejects(duplicate);
      assert.equal(await fine, 'b1');
      assert.deepEqual(await names(), ['a1', 'a2', 'a3', 'a4', 'a5', 'b1']);
    });

    it('serves many concurrent reads in the order they were asked', async () => {
      const finished: number[] = [];
      const answers = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          sql<{ n: number }>`select ${i} as n`.execute(store.db).then((result) => {
            finished.push(i);
            return Number(result.rows[0]!.n);
          }),
        ),
      );
      assert.deepEqual(answers, Array.from({ length: 500 }, (_, i) => i));
      // The embedded store's one connection per role serves requests first come, first served.
      if (dialect === 'sqlite') assert.deepEqual(finished, Array.from({ length: 500 }, (_, i) => i));
      else assert.equal(finished.length, 500);
    });

    it('resolves an action only once its writes are visible to readers', async () => {
      await addRealm('c1');
      assert.ok((await names()).includes('c1'));
    });

    it('runs an action again after a unique violation, so its own check can answer', async () => {
      let attempts = 0;
      const result = await withTransaction(store.db, async (tx) => {
        attempts++;
        await tx.selectFrom('realm').select('id').execute();
        if (attempts === 1) throw Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
        return 'second try';
      });
      assert.equal(result, 'second try');
      assert.equal(attempts, 2);
      // Other errors are not retried.
      attempts = 0;
      await assert.rejects(
        withTransaction(store.db, async () => {
          attempts++;
          throw Object.assign(new Error('not null'), { code: '23502' });
        }),
        /not null/,
      );
      assert.equal(attempts, 1);
    });
  });
}
