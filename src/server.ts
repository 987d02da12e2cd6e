// Starting and stopping the server: open the store, migrate, make sure an organization
// exists, listen, and on SIGINT/SIGTERM stop taking requests and close the store.
import type { FastifyInstance } from 'fastify';
import { runSystemAction } from './actions/context.js';
import { doCreateRealm } from './actions/realm-create.js';
import { buildApp } from './app.js';
import { type Config, externalUrl } from './config.js';
import { migrateToLatest, openStore, sqlitePathFor } from './db/connect.js';
import { seedDevMessages, seedDevRealm } from './dev-seed.js';
import { LocalBus } from './events/bus.js';
import { withQueues } from './events/registry.js';
import { generateApiKey } from './lib/credentials.js';
import { listRealms } from './queries/realms.js';
import { type Services, systemClock } from './services.js';

export async function openServices(config: Config): Promise<Services> {
  const store = config.databaseUrl
    ? openStore({ databaseUrl: config.databaseUrl })
    : openStore({ sqlitePath: sqlitePathFor(config.dataDir) });
  await migrateToLatest(store.db);
  const services = withQueues({ config, store, db: store.db, clock: systemClock, bus: new LocalBus() });
  await services.queues.start();
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
  print(`Try: curl -u ${owner.delivery_email}:${owner.api_key} ${url}/api/v1/users/me`);
  print('(This is shown once. Rotate the key with: confab api-key --email owner@confab.local --rotate)');
}

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  stop(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const services = await openServices(config);
  await ensureRealm(services, (line) => console.log(line));
  const app = await buildApp(services, {
    logger: { level: config.logLevel },
  });
  services.log = app.log;
  const address = await app.listen({ host: config.host, port: config.port });
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // Waiting polls end first, or closing the server would wait for them.
      services.queues.shutdown();
      await app.close();
      await services.queues.save();
      await services.store.close();
    })());
  return { app, services, url: address, stop };
}
