// Prometheus metrics at /metrics (off unless --metrics or --metrics-token): requests by route and
// status with their latency, event queues and waiting polls, events delivered, the database pool
// (or the embedded store's log size), Redis round trips in a cluster, and Node's own figures
// (event-loop delay, heap, GC). prom-client is loaded only when metrics are on, so a server without
// them carries none of it.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { countRedisCommands, REDIS_BUCKETS } from '../cluster/redis-metrics.js';
import type { Services } from '../services.js';

/** Latency buckets in seconds: event polls and uploads aside, requests take milliseconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function metricsEnabled(services: Services): boolean {
  return services.config.metrics || Boolean(services.config.metricsToken);
}

function tokenMatches(expected: string, header: string | undefined): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export async function registerMetrics(app: FastifyInstance, services: Services): Promise<void> {
  if (!metricsEnabled(services)) return;
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry, prefix: 'confab_' });

  const requests = new prom.Counter({
    name: 'confab_http_requests_total',
    help: 'HTTP requests answered, by route, method and status (event polls answered before routing excepted)',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const latency = new prom.Histogram({
    name: 'confab_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by route and method',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const delivered = new prom.Counter({
    name: 'confab_events_delivered_total',
    help: 'Events put into event queues, counted once per receiving user, by event type',
    labelNames: ['type'],
    registers: [registry],
  });
  new prom.Gauge({
    name: 'confab_event_queues',
    help: 'Event queues this process holds',
    registers: [registry],
    collect() {
      this.set(services.queues.size());
    },
  });
  new prom.Gauge({
    name: 'confab_event_polls_waiting',
    help: 'Long polls waiting for events now',
    registers: [registry],
    collect() {
      this.set(services.queues.waitingPolls());
    },
  });
  const poolUse = services.store.poolUse;
  if (poolUse) {
    new prom.Gauge({
      name: 'confab_db_pool_connections',
      help: 'PostgreSQL pool connections: open, idle, and requests waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const use = poolUse();
        this.set({ state: 'open' }, use.total);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });
  }

  const checkpointer = services.store.checkpointer;
  if (checkpointer) {
    new prom.Gauge({
      name: 'confab_db_wal_bytes',
      help: "Size of the embedded store's write-ahead log file",
      registers: [registry],
      collect() {
        this.set(checkpointer.walBytes());
      },
    });
  }

  const stopCountingRedis = services.cluster
    ? countRedisCommands(
        new prom.Counter({
          name: 'confab_redis_commands_total',
          help: 'Redis commands sent (round trips; a pipeline counts each of its commands), by command and result',
          labelNames: ['command', 'result'],
          registers: [registry],
        }),
        new prom.Histogram({
          name: 'confab_redis_command_duration_seconds',
          help: 'Time from a Redis command being written to its answer, by command',
          labelNames: ['command'],
          buckets: REDIS_BUCKETS,
          registers: [registry],
        }),
      )
    : () => undefined;

  const stopCounting = services.bus.subscribe((batch) => {
    for (const { event, users } of batch) delivered.inc({ type: String(event.type) }, users.length);
  });
  app.addHook('onClose', (_app, done) => {
    stopCounting();
    stopCountingRedis();
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, not its path, so that ids do not make a label each.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') {
      requests.inc({ route, method: request.method, status: reply.statusCode });
      latency.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    }
    done();
  });

  app.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = services.config.metricsToken;
    if (token && !tokenMatches(token, request.headers.authorization)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ result: 'error', msg: 'Not authorized to read the metrics', code: 'UNAUTHORIZED' });
    }
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });
}
