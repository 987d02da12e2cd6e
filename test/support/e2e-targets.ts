// Where the end-to-end client tests run: one Confab process, and (with TEST_DATABASE_URL and Redis)
// three processes on one PostgreSQL database and one Redis behind deploy/nginx-confab.conf in
// Debian's nginx, round-robin, as a scaled-out deployment runs. Each test file starts one of each
// and runs its tests against both.
import type { Client } from 'zulip-js';
import { startCluster, TEST_REDIS_URL } from './cluster.js';
import { startNginx } from './nginx.js';
import { startTestServer } from './running-server.js';

export interface E2eServer {
  url: string;
  /** A folder for the test's own files, removed when the server stops. */
  dataDir: string;
  stop(): Promise<void>;
}

export interface E2eTarget {
  name: string;
  skip: string | false;
  start(name: string): Promise<E2eServer>;
}

export const E2E_TARGETS: readonly E2eTarget[] = [
  {
    name: 'one process',
    skip: false,
    start: (name) => startTestServer(name, { fastHeartbeats: true }),
  },
  {
    name: 'three processes behind nginx',
    skip: !TEST_REDIS_URL && 'needs TEST_DATABASE_URL (and Redis at TEST_REDIS_URL)',
    async start() {
      const cluster = await startCluster(3);
      const nginx = await startNginx(cluster.members.map((m) => m.port)).catch(async (error: unknown) => {
        await cluster.stop();
        throw error;
      });
      return {
        url: nginx.url,
        dataDir: cluster.dataDir,
        async stop() {
          nginx.stop();
          await cluster.stop();
        },
      };
    },
  },
];

interface ZEvent {
  id: number;
  type: string;
  [key: string]: unknown;
}

/**
 * The queue's events (heartbeats left out) from `lastEventId` on, polling until `enough` says so.
 * Events travel between processes after the request that caused them is answered, so a test
 * waits for them rather than asking once with dont_block.
 */
export async function eventsUntil(
  client: Client,
  /** What register answered. */
  queue: Record<string, unknown>,
  enough: (events: ZEvent[]) => boolean,
): Promise<ZEvent[]> {
  const events: ZEvent[] = [];
  let last = Number(queue.last_event_id);
  // Past the deadline, a missing event ends the wait at the next heartbeat.
  const deadline = Date.now() + 10_000;
  while (!enough(events) && Date.now() < deadline) {
    const answer = await client.events.retrieve({ queue_id: String(queue.queue_id), last_event_id: last });
    if (answer.result !== 'success') throw new Error(`polling failed: ${JSON.stringify(answer)}`);
    const received = answer.events as ZEvent[];
    if (received.length > 0) last = received.at(-1)!.id;
    events.push(...received.filter((event) => event.type !== 'heartbeat'));
  }
  return events;
}
