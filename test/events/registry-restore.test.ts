// Queues taken in (saved at a stop, or handed over by a stopping process) are dropped when their
// user or organization is gone, but not when the store cannot be read just then: that is an outage,
// and dropping them would send every client to register again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/schema.js';
import type { QueueSnapshot } from '../../src/events/queue.js';
import { setup, type TestContext } from '../support/context.js';

describe('restoring event queues', () => {
  let ctx: TestContext;
  before(async () => (ctx = await setup('sqlite')));
  after(() => ctx.close());

  async function detachedQueue(): Promise<QueueSnapshot> {
    const { queue_id } = (await ctx.as('mark').post('/register', { event_types: ['message'] })).body as { queue_id: string };
    const snapshot = ctx.services.queues.detachAll().find((s) => s.id === queue_id);
    assert.ok(snapshot);
    return snapshot;
  }

  it('fails, keeping the queues to restore later, while the store is away', async () => {
    const snapshot = await detachedQueue();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const db = ctx.services.db;
    ctx.services.db = db.withPlugin({
      transformQuery() {
        throw refused;
      },
      transformResult: async ({ result }) => result,
    }) as Db;
    try {
      await assert.rejects(ctx.services.queues.restore([snapshot]), refused);
    } finally {
      ctx.services.db = db;
    }
    assert.deepEqual(await ctx.services.queues.restore([snapshot]), [snapshot.id]);
    assert.ok(ctx.services.queues.get(snapshot.id));
  });

  it('drops a queue whose user is gone', async () => {
    const snapshot = await detachedQueue();
    const orphan = { ...snapshot, id: `${snapshot.id}-orphan`, spec: { ...snapshot.spec, userId: 999_999 } };
    assert.deepEqual(await ctx.services.queues.restore([orphan]), []);
  });
});
