// The memory soak of bench/footprint.ts: many people each long-poll a queue of their own while
// one of them sends to a stream they all read and others fetch its newest messages; the
// server's RSS is sampled throughout.
import type { Store } from '../../src/db/connect.js';
import { type Person, pickAudience, removeTopicMessages } from './audience.js';
import { call } from './http-client.js';
import { LeanPoller } from './lean-poller.js';
import { type ResidentParts, residentByComponent } from './proc-memory.js';
import { memoryOf, type RunningProcess } from './servers.js';

export const SOAK_TOPIC = 'bench footprint soak';

export interface SoakOptions {
  port: number;
  pid: number;
  stream: { id: number; name: string };
  people: Person[];
  seconds: number;
  sendsPerSecond: number;
  fetchesPerSecond: number;
  sampleEverySeconds: number;
  log(line: string): void;
}

export interface SoakResult {
  /** Seconds since the soak began, and VmRSS then (MB). */
  samples: Array<{ at: number; rssMb: number }>;
  sent: number;
  fetched: number;
  eventsReceived: number;
  failures: number;
  /** Resident memory by component at the end of the load. */
  components: ResidentParts | null;
}

export interface FreshSoakOptions {
  queues: number;
  seconds: number;
  sendsPerSecond: number;
  fetchesPerSecond: number;
  log(line: string): void;
}

/**
 * The soak on a server of its own: `queues` people of the biggest stream long-poll while
 * the load runs on the server `start` gives; then the server stops and the messages it was sent
 * are removed from the data set.
 */
export async function soakFreshServer(start: () => Promise<RunningProcess>, openStore: () => Store, options: FreshSoakOptions): Promise<SoakResult> {
  let store = openStore();
  const audience = await pickAudience(store, options.queues).finally(() => store.close());
  const server = await start();
  try {
    return await soak({
      port: server.port, pid: server.pid, stream: audience.stream, people: audience.people, seconds: options.seconds,
      sendsPerSecond: options.sendsPerSecond, fetchesPerSecond: options.fetchesPerSecond,
      sampleEverySeconds: Math.max(1, Math.min(10, Math.round(options.seconds / 24))), log: options.log,
    });
  } finally {
    await server.stop();
    store = openStore();
    options.log(`removed the ${await removeTopicMessages(store, SOAK_TOPIC).finally(() => store.close())} messages the soak sent`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function soak(options: SoakOptions): Promise<SoakResult> {
  const { port, people, stream } = options;
  const result: SoakResult = { samples: [], sent: 0, fetched: 0, eventsReceived: 0, failures: 0, components: null };
  const queues: Array<{ person: Person; queueId: string; lastEventId: number }> = [];
  for (const person of people) {
    const answer = await call(port, 'POST', '/register', person.auth, { event_types: ['message'] });
    if (answer.status !== 200) throw new Error(`register failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    queues.push({ person, queueId: answer.body.queue_id, lastEventId: answer.body.last_event_id });
  }
  options.log(`soak: ${queues.length} queues registered; ${options.sendsPerSecond} sends/s and ${options.fetchesPerSecond} fetches/s for ${options.seconds} s`);
  const stop = new AbortController();
  const pollers = queues.map((queue) => new LeanPoller(port, queue.person.auth));
  const polls = queues.map(async (queue, i) => {
    while (!stop.signal.aborted) {
      try {
        const answer = await pollers[i]!.poll(queue.queueId, queue.lastEventId);
        if (answer.status !== 200) throw new Error(`poll answered ${answer.status}`);
        for (const event of answer.body.events ?? []) {
          queue.lastEventId = Math.max(queue.lastEventId, Number(event.id));
          if (event.type === 'message') result.eventsReceived++;
        }
      } catch {
        if (stop.signal.aborted) return;
        result.failures++;
        await sleep(100);
      }
    }
  });
  const at = (rate: number, work: (n: number) => Promise<boolean>) =>
    (async () => {
      const started = performance.now();
      for (let n = 0; !stop.signal.aborted; n++) {
        await sleep(Math.max(0, started + (n * 1000) / rate - performance.now()));
        if (stop.signal.aborted) return;
        work(n).then((ok) => void (ok || result.failures++), () => void result.failures++);
      }
    })();
  const sender = people[0]!;
  const narrow = JSON.stringify([{ operator: 'stream', operand: stream.id }]);
  const loads = [
    at(options.sendsPerSecond, async (n) => {
      const answer = await call(port, 'POST', '/messages', sender.auth, { type: 'stream', to: String(stream.id), topic: SOAK_TOPIC, content: `Soak message ${n}: a few words of steady traffic.` });
      if (answer.status === 200) result.sent++;
      return answer.status === 200;
    }),
    at(options.fetchesPerSecond, async (n) => {
      const reader = people[n % people.length]!;
      const answer = await call(port, 'GET', '/messages', reader.auth, { anchor: 'newest', num_before: 100, num_after: 0, narrow });
      if (answer.status === 200) result.fetched++;
      return answer.status === 200;
    }),
  ];
  const started = performance.now();
  while ((performance.now() - started) / 1000 < options.seconds) {
    await sleep(options.sampleEverySeconds * 1000);
    const memory = memoryOf(options.pid);
    const sample = { at: Math.round((performance.now() - started) / 1000), rssMb: memory?.rssMb ?? NaN };
    result.samples.push(sample);
    options.log(`soak: ${sample.at} s, RSS ${sample.rssMb.toFixed(1)} MB, ${result.sent} sent, ${result.fetched} fetched, ${result.eventsReceived} events received`);
  }
  result.components = residentByComponent(options.pid);
  stop.abort();
  await Promise.all(loads);
  for (const poller of pollers) poller.close();
  await Promise.all(polls);
  await Promise.all(queues.map((queue) => call(port, 'DELETE', '/events', queue.person.auth, { queue_id: queue.queueId }).catch(() => null)));
  return result;
}
