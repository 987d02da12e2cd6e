// Health checks for load balancers and supervisors, outside /api/v1 and without credentials:
// /health/live answers while the process serves requests at all; /health/ready answers 200 only
// when the store answers a query and its writes are not failing for lack of disk space (and, in a
// cluster, Redis answers a ping), so a balancer stops sending requests to a process that cannot
// serve them.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Services } from '../services.js';

/** A readiness check that takes longer than this counts as failed. */
const READY_TIMEOUT_MS = 2000;

type Check = 'ok' | string;

async function check(probe: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return 'ok';
  } catch (error) {
    return (error as Error).message || 'failed';
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: FastifyInstance, services: Services): void {
  app.get('/health/live', (_req, reply) => {
    reply.header('cache-control', 'no-store').send({ status: 'ok' });
  });
  app.get('/health/ready', async (_req, reply) => {
    const { cluster } = services;
    const [answered, redis] = await Promise.all([check(() => sql`select 1`.execute(services.db)), cluster ? check(() => cluster.ping()) : null]);
    // A store that answers but whose writes fail for lack of space is no more use to send requests to.
    const database = answered === 'ok' ? (services.store.writeHealth?.problem() ?? 'ok') : answered;
    const checks = redis === null ? { database } : { database, redis };
    const ready = Object.values(checks).every((result) => result === 'ok');
    reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ok' : 'unavailable', checks });
  });
}
