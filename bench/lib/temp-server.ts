// A Confab on a fresh store in a temporary folder, served on a free port, for the benchmarks
// that build their own data; close() stops it and removes the folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type Config, defaultConfig } from '../../src/config.js';
import { openServices } from '../../src/server.js';
import type { Services } from '../../src/services.js';
import { agent } from './http-client.js';

export interface TempServer {
  services: Services;
  /** Starts answering HTTP; returns the port. */
  listen(): Promise<number>;
  close(): Promise<void>;
}

export async function openTempServer(prefix: string, config: Partial<Config> = {}): Promise<TempServer> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const services = await openServices({ ...defaultConfig, dataDir: dir, logLevel: 'warn', rateLimits: false, ...config });
  let app: FastifyInstance | null = null;
  return {
    services,
    async listen() {
      app = await buildApp(services);
      await app.listen({ host: '127.0.0.1', port: 0 });
      return (app.server.address() as { port: number }).port;
    },
    async close() {
      await app?.close();
      agent.destroy();
      services.queues.shutdown();
      await services.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
