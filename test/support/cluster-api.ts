// Calls to a cluster's members as the dev organization's people, with their API keys, for the
// cluster tests: any request to any member (or to nginx in front of them), and event queues
// polled until the event looked for arrives.
import assert from 'node:assert/strict';
import { DEV_PASSWORD } from '../../src/dev-seed.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { events?: ZEvent[] };
}

export interface ZEvent {
  id: number;
  type: string;
  [key: string]: unknown;
}

export interface Queue {
  queueId: string;
  last: number;
  /** Events received and not yet looked at, oldest first. */
  received: ZEvent[];
}

export class ClusterApi {
  private readonly keys = new Map<string, string>();

  /** Fetches the API keys of `people` (dev organization names: mark, mona, olivia, ...) through `base`. */
  static async login(base: string, people: string[]): Promise<ClusterApi> {
    const api = new ClusterApi();
    for (const who of people) {
      const res = await fetch(`${base}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: `${who}@confab.test`, password: DEV_PASSWORD }) });
      assert.equal(res.status, 200, `${who} logs in`);
      api.keys.set(who, ((await res.json()) as { api_key: string }).api_key);
    }
    return api;
  }

  authorization(who: string): string {
    return `Basic ${Buffer.from(`${who}@confab.test:${this.keys.get(who)}`).toString('base64')}`;
  }

  /** A request as `who` to `base` (a member's URL or nginx's); parameters go in the query for GET and DELETE. */
  async call(base: string, who: string, method: string, path: string, params: Record<string, string> = {}): Promise<Answer> {
    const query = new URLSearchParams(params).toString();
    const inQuery = method === 'GET' || method === 'DELETE';
    const res = await fetch(`${base}/api/v1${path}${inQuery && query ? `?${query}` : ''}`, {
      method,
      headers: { authorization: this.authorization(who) },
      ...(inQuery ? {} : { body: new URLSearchParams(params) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
  }

  async register(base: string, who: string, eventTypes: string[]): Promise<Queue> {
    const res = await this.call(base, who, 'POST', '/register', { event_types: JSON.stringify(eventTypes) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { queueId: String(res.body.queue_id), last: Number(res.body.last_event_id), received: [] };
  }

  /** The queue's next event of `type` (others, such as heartbeats, are passed over), polling through `base`. */
  async next(base: string, who: string, queue: Queue, type: string): Promise<ZEvent> {
    for (let i = 0; i < 10; i++) {
      const index = queue.received.findIndex((e) => e.type === type);
      if (index >= 0) return queue.received.splice(0, index + 1).at(-1)!;
      queue.received.length = 0;
      const res = await this.call(base, who, 'GET', '/events', { queue_id: queue.queueId, last_event_id: String(queue.last) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const events = res.body.events!;
      if (events.length > 0) queue.last = events.at(-1)!.id;
      queue.received.push(...events);
    }
    throw new Error(`no ${type} event`);
  }
}
