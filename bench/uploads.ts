// Upload and download throughput (MB/s) of Confab's /user_uploads beside a bare static-file
// server in the same run, and Confab's peak resident memory while it receives a 25 MB upload.
// Usage: npm run bench:uploads -- [--size-mb 25] [--rounds 5]
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureCompiled, SERVER_NODE_FLAGS } from './lib/confab-build.js';
import { freePort, HOST, killAll, memoryOf, type RunningProcess, startProcess } from './lib/servers.js';

const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, rounds: { type: 'string' } } });
const SIZE = Number(values['size-mb'] ?? 25) * 1024 * 1024;
const ROUNDS = Number(values.rounds ?? 5);
const BOUNDARY = 'bench-boundary-0c9f';

function send(port: number, path: string, headers: Record<string, string>, parts: Array<string | { file: string }>, length: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: HOST, port, method: 'POST', path, headers: { ...headers, 'content-length': String(length) } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${res.statusCode} ${body}`))));
    });
    req.on('error', reject);
    const write = async () => {
      for (const part of parts) {
        if (typeof part === 'string') req.write(part);
        else for await (const chunk of createReadStream(part.file)) if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    };
    write().catch(reject);
  });
}

function download(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: HOST, port, path, headers }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`download answered ${res.statusCode}`))));
    })
      .on('error', reject)
      .end();
  });
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) await work();
  return (ROUNDS * SIZE) / (1024 * 1024) / ((performance.now() - started) / 1000);
}

/** Samples the process's resident memory every 5 ms while work runs; answers the highest, MB. */
async function peakRssDuring(server: RunningProcess, work: () => Promise<unknown>): Promise<number> {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, server.memory()?.rssMb ?? 0)), 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, server.memory()?.rssMb ?? 0);
}

async function main() {
  const root = join(import.meta.dirname, '..');
  const dir = mkdtempSync(join(tmpdir(), 'confab-bench-uploads-'));
  try {
    const file = join(dir, 'payload.bin');
    writeFileSync(file, Buffer.alloc(SIZE, 0x5a));
    const entry = ensureCompiled(root, console.log);
    const confabPort = await freePort();
    const confab = await startProcess({
      name: 'confab',
      command: process.execPath,
      args: [...SERVER_NODE_FLAGS, entry, 'serve', '--dev', '--port', String(confabPort), '--data-dir', join(dir, 'data'), '--log-level', 'error', '--rate-limits', 'off'],
      port: confabPort,
      readyPath: '/api/v1/server_settings',
      logFile: join(dir, 'confab.log'),
      cwd: root,
    });
    const basePort = await freePort();
    const baseDir = join(dir, 'baseline');
    mkdirSync(baseDir);
    const baseline = await startProcess({
      name: 'baseline',
      command: process.execPath,
      args: [join(root, 'bench', 'static-file-baseline.mjs'), String(basePort), baseDir],
      port: basePort,
      readyPath: '/ready',
      logFile: join(dir, 'baseline.log'),
      cwd: root,
    });
    const login = 'username=mark%40confab.test&password=confab-dev';
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const key = JSON.parse(await send(confabPort, '/api/v1/fetch_api_key', form, [login], login.length)).api_key as string;
    const auth = { authorization: `Basic ${Buffer.from(`mark@confab.test:${key}`).toString('base64')}` };
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="payload.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const tail = `\r\n--${BOUNDARY}--\r\n`;
    const multipart = { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    const uploadConfab = () => send(confabPort, '/api/v1/user_uploads', multipart, [head, { file }, tail], head.length + SIZE + tail.length);
    const uploadBaseline = () => send(basePort, '/upload', {}, [{ file }], SIZE);

    const before = confab.memory()?.rssMb ?? NaN;
    const peak = await peakRssDuring(confab, uploadConfab);
    const uri = JSON.parse(await uploadConfab()).uri as string;
    const baseUri = JSON.parse(await uploadBaseline()).uri as string;
    const rows = [
      ['upload', await timed(uploadBaseline), await timed(uploadConfab)],
      ['download', await timed(() => download(basePort, baseUri, {})), await timed(() => download(confabPort, uri, auth))],
    ];
    // The first upload also loads and warms what uploads use; a later one shows what each upload holds.
    const beforeLater = confab.memory()?.rssMb ?? NaN;
    const peakLater = await peakRssDuring(confab, uploadConfab);
    console.log(`\n${ROUNDS} rounds of a ${SIZE / 1024 / 1024} MB file, one at a time, on ${HOST}`);
    console.log('            baseline MB/s   confab MB/s');
    for (const [what, base, ours] of rows) console.log(`${String(what).padEnd(12)}${(base as number).toFixed(0).padStart(13)}${(ours as number).toFixed(0).padStart(14)}`);
    console.log(`confab RSS before the first upload ${before.toFixed(1)} MB, peak during it ${peak.toFixed(1)} MB (+${(peak - before).toFixed(1)} MB)`);
    console.log(`confab RSS before a later upload ${beforeLater.toFixed(1)} MB, peak during it ${peakLater.toFixed(1)} MB (+${(peakLater - beforeLater).toFixed(1)} MB)`);
    console.log(`baseline idle RSS ${memoryOf(baseline.pid)?.rssMb.toFixed(1)} MB`);
    await confab.stop();
    await baseline.stop();
  } finally {
    killAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
