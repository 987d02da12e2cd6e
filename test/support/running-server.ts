// A real Confab on a free port with the dev organization, in a data folder of its own, for tests
// that drive it from outside (zulip-js, a browser). The seeding's printed lines are kept quiet.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { type RunningServer, startServer } from '../../src/server.js';

export interface TestServer {
  server: RunningServer;
  url: string;
  /** The server's data folder, removed when it stops (a place for a test's own files too). */
  dataDir: string;
  stop(): Promise<void>;
}

export async function startTestServer(name: string, options: { fastHeartbeats?: boolean } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `confab-${name}-`));
  const original = console.log;
  console.log = () => undefined;
  let server: RunningServer;
  try {
    const config = loadConfig({ port: '0', 'data-dir': dataDir, dev: true, 'log-level': 'fatal' }, {});
    server = await startServer(options.fastHeartbeats ? { ...config, heartbeatMinSeconds: 1, heartbeatMaxSeconds: 1 } : config);
  } finally {
    console.log = original;
  }
  return {
    server,
    url: server.url,
    dataDir,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
