// Fan-out of message events to many long-polling clients, shared by the event and cluster
// benchmarks: every client long-polls a queue of its own (in a few client processes, see
// fanout-client.ts), one person sends to their stream at a fixed rate, and each message's figure
// is the time from its send until every client holds it.
import { fork } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Person } from './audience.js';
import type { FromClient, ToClient } from './fanout-client.js';
import { call } from './http-client.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Seconds sent at each rate before counting: the first messages after a quiet spell meet cold caches. */
const WARMUP_SECONDS = 2;
/** Time left after the last send for every client to get it. */
const DRAIN_MS = 3000;

/** Runs `work` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  }));
  return out;
}

/** Without event types the queue takes every event and the state holds every area, as a full client asks. */
export async function register(port: number, person: Person, eventTypes?: string[]): Promise<{ queueId: string; lastEventId: number; receivedAt: number }> {
  const answer = await call(port, 'POST', '/register', person.auth, eventTypes ? { event_types: eventTypes } : {});
  if (answer.status !== 200) throw new Error(`register failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { queueId: answer.body.queue_id, lastEventId: answer.body.last_event_id, receivedAt: answer.receivedAt };
}

/** A process of long-polling clients (fanout-client.ts), driven over IPC. */
function clientProcess() {
  const child = fork(join(ROOT, 'bench', 'lib', 'fanout-client.ts'), { execArgv: ['--import', 'tsx'], cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (message: ToClient, answer: FromClient['kind']) =>
    new Promise<FromClient>((resolve, reject) => {
      const onMessage = (reply: FromClient) => {
        if (reply.kind !== answer) return;
        child.off('message', onMessage);
        resolve(reply);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`fan-out client exited with ${code}`)));
      child.send(message);
    });
  return { ask, pid: child.pid!, kill: () => child.kill() };
}

export interface FanoutSpec<M> {
  port: number;
  stream: string;
  topic: string;
  sender: Person;
  people: Person[];
  rates: number[];
  /** Measured seconds at each rate. */
  seconds: number;
  clientProcesses: number;
  /** Called just before the measured sends at a rate (the client processes' ids given); its answer is called after they drained. */
  meter: (clientPids: number[]) => Promise<() => Promise<M>>;
}

export interface FanoutResult<M> {
  rate: number;
  /** Per message delivered to every client: ms from its send to the last client holding it, sorted. */
  latencies: number[];
  incomplete: number;
  sent: number;
  /** Polls the clients had answered over the measured sends and the drain after them. */
  polls: number;
  measured: M;
}

/** Starts `work(n)` for n = 0 .. count-1 at `rate` a second, each on time whatever the others take; resolves with every answer. */
export async function paced<T>(count: number, rate: number, work: (n: number) => Promise<T>): Promise<T[]> {
  const start = performance.now();
  const started: Promise<T>[] = [];
  for (let n = 0; n < count; n++) {
    await sleep(Math.max(0, start + (n * 1000) / rate - performance.now()));
    started.push(work(n));
  }
  return Promise.all(started);
}

/** Sends at `rate` for `count` messages; resolves with each message's id and wall-clock send time. */
function sendAt(spec: FanoutSpec<unknown>, rate: number, count: number, label: string): Promise<Array<{ id: number; at: number }>> {
  return paced(count, rate, async (n) => {
    const at = performance.timeOrigin + performance.now();
    const params = { type: 'stream', to: spec.stream, topic: spec.topic, content: `fan-out ${rate}/s ${label} #${n}` };
    const answer = await call(spec.port, 'POST', '/messages', spec.sender.auth, params);
    return { id: answer.body.id as number, at };
  });
}

/** Registers a queue for each person, polls them all, sends at each rate; the queues are deleted afterwards. */
export async function runFanout<M>(spec: FanoutSpec<M>): Promise<{ queueIds: string[]; results: FanoutResult<M>[] }> {
  const { port, people } = spec;
  const queues = await pool(people, 50, (person) => register(port, person, ['message']));
  const processes = Array.from({ length: Math.min(spec.clientProcesses, queues.length) }, clientProcess);
  const share = (p: number) => queues.flatMap((queue, i) => (i % processes.length === p ? [{ auth: people[i]!.auth, ...queue }] : []));
  try {
    await Promise.all(processes.map((child, p) => child.ask({ kind: 'start', port, queues: share(p) }, 'started')));
    await sleep(1000);
    const results: FanoutResult<M>[] = [];
    for (const rate of spec.rates) {
      await sendAt(spec, rate, rate * WARMUP_SECONDS, 'warm-up');
      await sleep(1000);
      const answered = async () => {
        const counts = await Promise.all(processes.map((child) => child.ask({ kind: 'count' }, 'count')));
        return counts.reduce((sum, c) => sum + (c.kind === 'count' ? c.answers : 0), 0);
      };
      const pollsBefore = await answered();
      const stop = await spec.meter(processes.map((child) => child.pid));
      const sent = await sendAt(spec, rate, rate * spec.seconds, 'measured');
      await sleep(DRAIN_MS);
      const measured = await stop();
      const polls = (await answered()) - pollsBefore;
      const received = new Map<number, { count: number; last: number }>();
      for (const child of processes) {
        const answer = await child.ask({ kind: 'collect' }, 'receipts');
        if (answer.kind !== 'receipts') continue;
        for (const [id, entry] of answer.receipts) {
          const sum = received.get(id) ?? { count: 0, last: 0 };
          received.set(id, { count: sum.count + entry.count, last: Math.max(sum.last, entry.last) });
        }
      }
      const latencies = sent
        .filter((s) => (received.get(s.id)?.count ?? 0) >= queues.length)
        .map((s) => received.get(s.id)!.last - s.at)
        .sort((a, b) => a - b);
      results.push({ rate, latencies, incomplete: sent.length - latencies.length, sent: sent.length, polls, measured });
    }
    await Promise.all(processes.map((child) => child.ask({ kind: 'stop' }, 'stopped')));
    return { queueIds: queues.map((q) => q.queueId), results };
  } finally {
    for (const child of processes) child.kill();
    await pool(queues, 50, (queue, i) => call(port, 'DELETE', '/events', people[i]!.auth, { queue_id: queue.queueId }).catch(() => undefined));
  }
}
