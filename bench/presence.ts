// Presence pings at scale: --users people (default 1,000) each ping once a minute, the minutes
// compressed (the server's clock jumps 60 s between rounds, so every ping moves a timestamp and
// writes, as in steady use). Pings go over real HTTP to a Confab on a fresh SQLite store in this
// process, --concurrency at a time. Prints, per kind of ping, the CPU time per ping (this whole
// process: the client side is counted too, though it only reads the answers and leaves them
// unparsed, so the figure is a slight upper bound) and what that makes
// as a share of one core at --users pings a minute.
// Usage: npx tsx bench/presence.ts [--users 1000] [--rounds 5] [--concurrency 50]
import { parseArgs } from 'node:util';
import { runSystemAction } from '../src/actions/context.js';
import { doCreateRealm } from '../src/actions/realm-create.js';
import { doCreateUser } from '../src/actions/user-create.js';
import { request } from 'node:http';
import { agent, basicAuth } from './lib/http-client.js';
import { HOST } from './lib/servers.js';
import { positiveInt } from './lib/store-options.js';
import { openTempServer } from './lib/temp-server.js';

const { values } = parseArgs({ options: { users: { type: 'string' }, rounds: { type: 'string' }, concurrency: { type: 'string' }, help: { type: 'boolean' } } });
if (values.help) {
  console.log('Usage: npx tsx bench/presence.ts [--users 1000] [--rounds 5] [--concurrency 50]');
  process.exit(0);
}
const userCount = positiveInt('users', values.users, 1000);
const rounds = positiveInt('rounds', values.rounds, 5);
const concurrency = positiveInt('concurrency', values.concurrency, 50);

const server = await openTempServer('confab-presence-');
const services = server.services;
let offset = 0;
const realClock = services.clock;
// The minutes pass between rounds only: within a round the clock stands still.
(services as { clock: typeof realClock }).clock = { now: () => realClock.now() + offset } as typeof realClock;

const auths = await runSystemAction(services, async (ctx) => {
  const { realm, owner } = await doCreateRealm(ctx, {
    name: 'Presence bench',
    url: 'http://127.0.0.1',
    owner: { email: 'owner@bench.test', fullName: 'Owner', password: 'bench-password' },
  });
  const out = [basicAuth(owner.delivery_email, owner.api_key)];
  for (let i = 1; i < userCount; i++) {
    const user = await doCreateUser(ctx, realm, { email: `user${i}@bench.test`, fullName: `User ${i}`, subscribeToDefaults: false });
    out.push(basicAuth(user.delivery_email, user.api_key));
  }
  return out;
});
const port = await server.listen();

/** One ping; the answer is read to its end and its status checked, its body left unparsed. */
function ping(auth: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' };
    const req = request({ host: HOST, port, method: 'POST', path: '/api/v1/users/me/presence', headers, agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`ping answered ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function round(params: Record<string, unknown>): Promise<void> {
  const body = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  let next = 0;
  const worker = async () => {
    while (next < auths.length) {
      const auth = auths[next++]!;
      await ping(auth, body);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function measure(label: string, params: Record<string, unknown>): Promise<void> {
  offset += 60;
  await round(params); // warm-up round, not counted
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) {
    offset += 60;
    await round(params);
  }
  const used = process.cpuUsage(cpu);
  const pings = rounds * auths.length;
  const perPing = (used.user + used.system) / 1000 / pings;
  const share = (perPing / 1000) * (userCount / 60) * 100;
  const wall = (performance.now() - started) / pings;
  console.log(`${label.padEnd(34)} ${perPing.toFixed(3)} ms CPU/ping  ${wall.toFixed(3)} ms wall/ping  ${share.toFixed(2)}% of a core at ${userCount} pings/min`);
}

try {
  console.log(`${userCount} users, ${rounds} counted rounds of one ping each, ${concurrency} in flight`);
  await measure('ping_only', { status: 'active', ping_only: true });
  await measure('slim answer (mobile app)', { status: 'active', slim_presence: true });
  await measure('legacy answer (terminal client)', { status: 'active' });
} finally {
  await server.close();
}
