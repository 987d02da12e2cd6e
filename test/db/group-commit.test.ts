// Group commit with the writer on the event loop: the loop turns between a batch's actions, and a
// batch takes no new actions once its window has passed. The batches run on a clock the test moves.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest, openStore, type Store } from '../../src/db/connect.js';
import { GroupCommitter } from '../../src/db/group-commit.js';

const realm = (name: string) => ({ string_id: name, name, description: '', url: `http://${name}.test`, date_created: 0, deactivated: 0, settings: '{}' });

describe('group commit with the writer on the event loop', () => {
  let store: Store;
  let dir: string;
  /** The batches' clock, in milliseconds: it moves only when an action says it took time. */
  let clock = 0;
  let committer: GroupCommitter;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'confab-threads-'));
    store = openStore({ sqlitePath: join(dir, 'confab.db') });
    await migrateToLatest(store.db);
    committer = new GroupCommitter(store.db, { maxMs: 20, now: () => clock });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const act = (name: string, seen: string[], tookMs = 0) =>
    committer.run(async (tx) => {
      seen.push(`${name} runs`);
      await tx.insertInto('realm').values(realm(name)).execute();
      // An action that keeps the writer this long (rendering a long message, say).
      clock += tookMs;
    }).then(() => seen.push(`${name} committed`));

  it('lets the event loop turn between the actions of a batch', async () => {
    const seen: string[] = [];
    const batch = Promise.all(['b1', 'b2', 'b3'].map((name) => act(name, seen)));
    setImmediate(() => seen.push('loop turned'));
    await batch;
    // Without the turn, all three would run before the loop did; with it, they still commit together.
    assert.deepEqual(seen.slice(0, 2), ['b1 runs', 'loop turned']);
    assert.deepEqual(seen.filter((step) => step !== 'loop turned'), ['b1 runs', 'b2 runs', 'b3 runs', 'b1 committed', 'b2 committed', 'b3 committed']);
  });

  it('takes actions into a batch while it has been open less than 20 ms', async () => {
    const seen: string[] = [];
    await Promise.all([act('d1', seen, 19), act('d2', seen), act('d3', seen)]);
    assert.deepEqual(seen, ['d1 runs', 'd2 runs', 'd3 runs', 'd1 committed', 'd2 committed', 'd3 committed']);
  });

  it('takes no more actions into a batch once it has been open 20 ms: they commit in the next one', async () => {
    const seen: string[] = [];
    await Promise.all([act('c1', seen, 20), act('c2', seen), act('c3', seen)]);
    assert.deepEqual(seen, ['c1 runs', 'c1 committed', 'c2 runs', 'c3 runs', 'c2 committed', 'c3 committed']);
  });
});
