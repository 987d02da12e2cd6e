// Starting and stopping the server: open the store, migrate, make sure an organization
// exists, listen, and on SIGINT/SIGTERM stop taking requests, save the event queues and close
// the store (main.ts bounds how long that may take).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { runSystemAction } from './actions/context.js';
import { scheduleIdempotencySweep } from './actions/idempotency.js';
import { doCreateRealm } from './actions/realm-create.js';
import { openStorage } from './adapters/storage/index.js';
import { scheduleUploadSweep } from './actions/upload-sweep.js';
import { buildApp } from './app.js';
import { type Config, externalUrl } from './config.js';
import { migrateToLatest, openStore, sqlitePathFor } from './db/connect.js';
import { seedDevMessages, seedDevRealm } from './dev-seed.js';
import { ServerShuttingDownError } from './errors.js';
import { LocalBus } from './events/bus.js';
import { withQueues } from './events/registry.js';
import { startScheduledDelivery } from './actions/scheduled-delivery.js';
import { sendApiError } from './http/error-handler.js';
import { generateApiKey } from './lib/credentials.js';
import { listRealms } from './queries/realms.js';
import { RedisRateLimitStore } from './adapters/rate-limit/redis.js';
import { connectCluster, handOverQueues, serveMembers } from './cluster/join.js';
import { RuleRateLimiter, rulesFromConfig } from './http/rate-limit.js';
import { type Services, systemClock } from './services.js';

export async function openServices(config: Config): Promise<Services> {
  let services: Services | undefined;
  const cluster = config.redisUrl ? await connectCluster(config, systemClock, (error) => services?.log?.error({ err: error }, 'a Redis command failed')) : null;
  const store = config.databaseUrl
    ? openStore({
        databaseUrl: config.databaseUrl,
        // A restart or failover of the database: requests fail (503) until the pool reconnects.
        onConnectionError: (error) => services?.log?.warn({ err: error }, 'the database closed a connection'),
      })
    : openStore({ sqlitePath: sqlitePathFor(config.dataDir) });
  await migrateToLatest(store.db);
  const storage = await openStorage(config);
  services = withQueues({
    config,
    store,
    db: store.db,
    clock: systemClock,
    bus: cluster?.bus ?? new LocalBus(),
    storage,
    ...(cluster
      ? {
          cluster: cluster.member,
          rateLimiter: new RuleRateLimiter(rulesFromConfig(config), new RedisRateLimitStore(cluster.member.redis, config.redisPrefix, (error) => services?.log?.warn({ err: error }, 'rate-limit counters unavailable')), systemClock),
        }
      : {}),
  });
  if (cluster) serveMembers(services, cluster);
  const restored = await services.queues.start();
  // Saved by a member that stopped: polls reaching other members are passed on to this one.
  if (cluster) await cluster.member.recordMoved(restored);
  return services;
}

/** On an empty store: the dev organization in dev mode, otherwise a fresh organization and its owner. */
export async function ensureRealm(services: Services, print: (line: string) => void): Promise<void> {
  if ((await listRealms(services.db)).length > 0) return;
  const url = externalUrl(services.config);
  if (services.config.dev) {
    const seed = await seedDevRealm(services, url);
    await seedDevMessages(services, seed);
    print(`Seeded the dev organization "${seed.realm.name}" at ${url}`);
    print(`Log in as any of ${Object.values(seed.users).filter((u) => !u.is_bot).map((u) => u.delivery_email).join(', ')} (password confab-dev).`);
    return;
  }
  const password = generateApiKey().slice(0, 16);
  const { owner } = await runSystemAction(services, (ctx) =>
    doCreateRealm(ctx, {
      name: 'Confab',
      url,
      owner: { email: 'owner@confab.local', fullName: 'Organization Owner', password },
    }),
  );
  print('Created a new organization "Confab" with its owner:');
  print(`  email:    ${owner.delivery_email}`);
  print(`  password: ${password}`);
  print(`  API key:  ${owner.api_key}`);
  print(`Open ${url}/ in a browser and log in with this email and password, then use Invite people in the web client to invite others.`);
  print(`Try: curl -u ${owner.delivery_email}:${owner.api_key} ${url}/api/v1/users/me`);
  print('(This is shown once. Rotate the key with: confab api-key --email owner@confab.local --rotate)');
}

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  stop(): Promise<void>;
}

/** How long a stop waits for requests under way to finish before saving the queues. */
const DRAIN_MS = 3000;

/** Counts the requests Node's HTTP server is answering, and says when none are left. */
class InFlight {
  private count = 0;
  private readonly idle = new Set<() => void>();

  readonly track = (_req: IncomingMessage, res: ServerResponse): void => {
    this.count++;
    res.once('close', this.finished);
  };

  private readonly finished = (): void => {
    if (--this.count > 0) return;
    for (const resolve of this.idle) resolve();
  };

  /** Resolves when no request is under way, or after `ms`. */
  drained(ms: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.idle.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.idle.add(done);
    });
  }
}

export interface StartOptions {
  /**
   * Also listen on a port of this process's own on 127.0.0.1, and announce it to the cluster: a
   * worker of `--workers` shares its public port with the others, so that port cannot reach it.
   */
  internalListener?: boolean;
}

/** A second listener with the same handler, on a loopback port not shared with other workers. */
async function listenInternally(app: FastifyInstance): Promise<{ server: Server; url: string }> {
  const handler = app.server.listeners('request')[0] as (req: IncomingMessage, res: ServerResponse) => void;
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, resolve);
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const services = await openServices(config);
  await ensureRealm(services, (line) => console.log(line));
  // While stopping, requests get our 503 (below) rather than Fastify's own.
  const app = await buildApp(services, { logger: { level: config.logLevel }, return503OnClosing: false });
  services.log = app.log;
  let stopping: Promise<void> | null = null;
  app.addHook('onRequest', (_req, reply, done) => {
    if (stopping) return void sendApiError(reply, new ServerShuttingDownError());
    done();
  });
  const inFlight = new InFlight();
  app.server.on('request', inFlight.track);
  const address = await app.listen({ host: config.host, port: config.port });
  const internal = options.internalListener ? await listenInternally(app) : null;
  await services.cluster?.join(internal?.url ?? config.advertiseUrl ?? address);
  const stopDelivery = startScheduledDelivery(services);
  const stopSweep = scheduleUploadSweep(services);
  const stopKeySweep = scheduleIdempotencySweep(services);
  const stop = () =>
    (stopping ??= (async () => {
      // Other processes of a cluster wait for this one's queues rather than give them up for lost.
      await services.cluster?.markStopping();
      // No new connections; idle ones close, and busy ones after their answer (Connection: close).
      const closed = app.close();
      stopDelivery();
      stopSweep();
      stopKeySweep();
      // Waiting polls end unanswered: their connections close, and clients poll the next server.
      services.queues.shutdown();
      // Requests under way finish, so their events are in the queues that are saved.
      await inFlight.drained(DRAIN_MS);
      // Saved for the next start, or in a cluster handed to another process that is up.
      if (services.cluster) await handOverQueues(services);
      else await services.queues.save();
      app.server.closeAllConnections();
      internal?.server.closeAllConnections();
      internal?.server.close();
      await closed;
      await services.cluster?.close();
      await services.store.close();
    })());
  return { app, services, url: address, stop };
}
