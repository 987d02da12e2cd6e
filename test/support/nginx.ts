// Debian's nginx running the repository's deploy/nginx-confab.conf in front of Confab processes
// started by a test: the site file with the test's ports put in, inside a minimal main config
// whose paths are all in a temporary folder.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const NGINX_SITE = readFileSync(join(process.cwd(), 'deploy', 'nginx-confab.conf'), 'utf8');
const TEMP_DIRS = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The repository's site file with these upstream ports and listening port; fails if the file's shape changed. */
export function siteFor(upstreamPorts: number[], nginxPort: number): string {
  const servers = upstreamPorts.map((port) => `server 127.0.0.1:${port};`);
  const site = NGINX_SITE.replace(/^(\s*)server 127\.0\.0\.1:9991;$/m, (_line, indent: string) => servers.map((s) => indent + s).join('\n')).replace(
    /^(\s*)listen 80;$/m,
    `$1listen 127.0.0.1:${nginxPort};`,
  );
  for (const server of servers) assert.ok(site.includes(server), `${server} not in the site`);
  assert.ok(site.includes(`listen 127.0.0.1:${nginxPort};`));
  return site;
}

export interface RunningNginx {
  url: string;
  /** The master process; its workers are its children. */
  pid: number;
  stop(): void;
}

export interface NginxOptions {
  /** nginx's worker_processes (default 1). */
  workers?: number | 'auto';
  /** Connections each worker may hold, clients' and upstream ones together (default 1024). */
  workerConnections?: number;
  /** Replaces the site file's `keepalive` (idle connections kept to the upstream per worker). */
  upstreamKeepalive?: number;
}

/** The site file with its upstream keepalive replaced; fails if the file's shape changed. */
export function withKeepalive(site: string, connections: number): string {
  const changed = site.replace(/^(\s*)keepalive \d+;$/m, `$1keepalive ${connections};`);
  assert.ok(changed.includes(`keepalive ${connections};`), 'no keepalive line in the site');
  return changed;
}

export async function startNginx(upstreamPorts: number[], options: NginxOptions = {}): Promise<RunningNginx> {
  assert.equal(spawnSync(NGINX, ['-v']).status, 0, `${NGINX} is needed (Debian's nginx package; .ci/run installs it)`);
  const port = await freePort();
  const prefix = mkdtempSync(join(tmpdir(), 'confab-nginx-'));
  for (const dir of TEMP_DIRS) mkdirSync(join(prefix, dir));
  const site = siteFor(upstreamPorts, port);
  writeFileSync(join(prefix, 'confab.conf'), options.upstreamKeepalive === undefined ? site : withKeepalive(site, options.upstreamKeepalive));
  const temp = TEMP_DIRS.map((kind) => `${kind}_temp_path ${join(prefix, kind)};`).join(' ');
  writeFileSync(
    join(prefix, 'nginx.conf'),
    [
      // As root, nginx's workers would otherwise run as nobody, who cannot use the temporary folder.
      process.getuid?.() === 0 ? 'user root;' : '',
      'daemon off;',
      `worker_processes ${options.workers ?? 1};`,
      // Each worker's descriptors: a client's connection and its upstream one, with room to spare.
      `worker_rlimit_nofile ${4 * (options.workerConnections ?? 1024)};`,
      `pid ${join(prefix, 'nginx.pid')};`,
      `error_log ${join(prefix, 'error.log')} warn;`,
      `events { worker_connections ${options.workerConnections ?? 1024}; }`,
      `http { access_log off; ${temp} include ${join(prefix, 'confab.conf')}; }`,
    ].join('\n'),
  );
  const nginx: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 10_000;
  for (;;) {
    if (await fetch(`${url}/health/live`).then((r) => r.ok, () => false)) break;
    if (Date.now() > end) throw new Error(`nginx did not answer: ${readFileSync(join(prefix, 'error.log'), 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: nginx.pid!,
    stop() {
      nginx.kill('SIGTERM');
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
