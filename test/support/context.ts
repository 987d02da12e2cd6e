// One running app on a fresh store, seeded with the dev organization, for a test file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DiskStorage } from '../../src/adapters/storage/disk.js';
import type { FileStorage } from '../../src/adapters/storage/types.js';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateRealm } from '../../src/actions/realm-create.js';
import { buildApp } from '../../src/app.js';
import { type Config, defaultConfig } from '../../src/config.js';
import type { Store, StoreKind } from '../../src/db/connect.js';
import { type DevSeed, type DevUserName, seedDevRealm } from '../../src/dev-seed.js';
import { type Delivery, LocalBus } from '../../src/events/bus.js';
import { withQueues } from '../../src/events/registry.js';
import type { Services } from '../../src/services.js';
import { ApiClient, clientFor } from './client.js';
import { TestClock } from './clock.js';
import { freshStore } from './dialects.js';

export const TEST_URL = 'http://confab.test';
/** The host of the second organization some tests add beside the dev one. */
export const OTHER_HOST = 'other.confab.test';

/** A second organization at OTHER_HOST with just its owner (and no streams). */
export function createOtherRealm(ctx: TestContext, owner: { email: string; fullName: string; password?: string }) {
  return runSystemAction(ctx.services, (system) =>
    doCreateRealm(system, {
      name: 'Other',
      url: `http://${OTHER_HOST}`,
      stringId: 'other',
      owner,
      withGeneralStream: false,
    }),
  );
}

/** Merges `changes` into the dev organization's stored settings, bypassing the API's checks. */
export async function setRealmSettings(ctx: TestContext, changes: Record<string, unknown>): Promise<void> {
  const row = await ctx.services.db.selectFrom('realm').select('settings').where('id', '=', ctx.seed.realm.id).executeTakeFirstOrThrow();
  const settings = JSON.stringify({ ...JSON.parse(row.settings), ...changes });
  await ctx.services.db.updateTable('realm').set({ settings }).where('id', '=', ctx.seed.realm.id).execute();
}

export interface TestContext {
  dialect: StoreKind;
  app: FastifyInstance;
  services: Services;
  store: Store;
  clock: TestClock;
  seed: DevSeed;
  /** Every event published since the context was made (or since clearEvents). */
  events: Delivery[];
  clearEvents(): void;
  as(user: DevUserName): ApiClient;
  anonymous(): ApiClient;
  close(): Promise<void>;
}

export async function setup(
  dialect: StoreKind,
  options: { dev?: boolean; config?: Partial<Config>; store?: Store; storage?: FileStorage } = {},
): Promise<TestContext> {
  // A test that reaches its database in a way of its own (through a proxy, say) brings the store.
  const store = options.store ?? (await freshStore(dialect));
  const clock = new TestClock();
  const bus = new LocalBus();
  const events: Delivery[] = [];
  bus.subscribe((batch) => events.push(...batch));
  // Uploads go to a temporary folder of their own unless the test brings a storage (S3, say).
  const uploadsDir = options.storage ? null : mkdtempSync(join(tmpdir(), 'confab-uploads-'));
  const storage = options.storage ?? new DiskStorage(uploadsDir!);
  const services: Services = withQueues({
    storage,
    // Suites make thousands of requests per user: rate limits are on only where a test asks for them.
    config: { ...defaultConfig, dev: options.dev ?? true, externalUrl: TEST_URL, rateLimits: false, ...options.config },
    store,
    db: store.db,
    clock,
    bus,
    checkEvents: true,
  });
  await services.queues.start();
  const seed = await seedDevRealm(services, TEST_URL);
  events.length = 0;
  const app = await buildApp(services);
  return {
    dialect,
    app,
    services,
    store,
    clock,
    seed,
    events,
    clearEvents: () => void (events.length = 0),
    as: (name) => clientFor(app, seed.users[name]),
    anonymous: () => clientFor(app, null),
    async close() {
      services.queues.shutdown();
      await app.close();
      await store.close();
      if (uploadsDir) rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}
