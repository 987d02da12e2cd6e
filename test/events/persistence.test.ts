import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { queueSpec } from '../support/queue-spec.js';
import { waitUntil } from '../support/wait.js';

describe('event queues across a graceful restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-queues-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  const start = async () => {
    const original = console.log;
    console.log = () => {};
    try {
      return await startServer(loadConfig({ port: '0', 'data-dir': dataDir, 'log-level': 'fatal', dev: true }, {}));
    } finally {
      console.log = original;
    }
  };

  it('keeps each queue, its pending events and its numbering', async () => {
    const first = await start();
    const owner = await first.services.db.selectFrom('user_profile').selectAll().where('delivery_email', 'like', 'mona@%').executeTakeFirstOrThrow();
    const auth = { authorization: `Basic ${Buffer.from(`${owner.delivery_email}:${owner.api_key}`).toString('base64')}` };
    const queue = await first.services.queues.create(queueSpec(owner));
    first.services.bus.publish([0, 1, 2].map((n) => ({ event: { type: 'alert_words', alert_words: [`w${n}`] }, users: [owner.id] })));
    const acked = await fetch(`${first.url}/api/v1/events?queue_id=${queue.id}&last_event_id=0&dont_block=true`, { headers: auth });
    assert.deepEqual(((await acked.json()) as { events: Array<{ id: number }> }).events.map((e) => e.id), [1, 2]);
    // A poll still waiting at shutdown ends unanswered: its connection closes, and the client
    // polls again (an empty answer would have it poll the stopping server again at once).
    // So does one the route answers (a parameter beyond the plain three sends it there).
    const quiet = await first.services.queues.create(queueSpec(owner));
    const routed = await first.services.queues.create(queueSpec(owner));
    const outcome = (url: string) =>
      fetch(url, { headers: auth }).then(
        async (res) => `answered ${res.status} ${await res.text()}`,
        (error: Error & { cause?: { code?: string } }) => error.cause?.code,
      );
    const waiting = [
      outcome(`${first.url}/api/v1/events?queue_id=${quiet.id}&last_event_id=-1`),
      outcome(`${first.url}/api/v1/events?queue_id=${routed.id}&last_event_id=-1&apply_markdown=true`),
    ];
    await waitUntil(() => first.services.queues.waitingPolls() === 2);
    await first.stop();
    assert.deepEqual(await Promise.all(waiting), ['UND_ERR_SOCKET', 'UND_ERR_SOCKET']);

    const second = await start();
    try {
      const url = `${second.url}/api/v1/events?queue_id=${queue.id}&last_event_id=0&dont_block=true`;
      const body = (await (await fetch(url, { headers: auth })).json()) as { result: string; events: Array<{ id: number }> };
      assert.equal(body.result, 'success', JSON.stringify(body));
      assert.deepEqual(body.events, [
        { type: 'alert_words', alert_words: ['w1'], id: 1 },
        { type: 'alert_words', alert_words: ['w2'], id: 2 },
      ]);
      const pruned = await fetch(url.replace('last_event_id=0', 'last_event_id=-1'), { headers: auth });
      assert.equal(((await pruned.json()) as { msg: string }).msg, 'An event newer than -1 has already been pruned!');
      assert.ok(second.services.queues.get(quiet.id));
      second.services.bus.publish([{ event: { type: 'alert_words', alert_words: ['after'] }, users: [owner.id] }]);
      const next = await fetch(url.replace('last_event_id=0', 'last_event_id=2'), { headers: auth });
      assert.deepEqual(((await next.json()) as { events: unknown[] }).events, [{ type: 'alert_words', alert_words: ['after'], id: 3 }]);
      const rows = await second.services.db.selectFrom('event_queue_snapshot').selectAll().execute();
      assert.deepEqual(rows, []);
    } finally {
      await second.stop();
    }
  });
});
