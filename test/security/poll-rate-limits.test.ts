// Event polls answered straight from the socket (src/http/raw-polls.ts) count against the user's
// event-poll limit like the others; the one over it goes to the route, which answers 429.
import assert from 'node:assert/strict';
import { type AddressInfo, connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { queueSpec } from '../support/queue-spec.js';

/** Sends each request on one kept-alive connection and reads its answer (head and JSON body). */
async function sendInTurn(port: number, requests: string[]): Promise<Array<{ head: string; body: any }>> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  socket.on('data', (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  });
  const answers = [];
  try {
    for (const request of requests) {
      socket.write(request);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        const length = end < 0 ? NaN : Number(/\r\ncontent-length: (\d+)/i.exec(buffered.toString('latin1', 0, end))?.[1]);
        if (end >= 0 && buffered.length >= end + 4 + length) {
          answers.push({ head: buffered.toString('latin1', 0, end), body: JSON.parse(buffered.toString('utf8', end + 4, end + 4 + length)) });
          buffered = buffered.subarray(end + 4 + length);
          break;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    }
  } finally {
    socket.destroy();
  }
  return answers;
}

describe('event polls on raw connections and rate limits', () => {
  let ctx: TestContext;
  let port: number;
  before(async () => {
    ctx = await setup('sqlite', { config: { rateLimits: true, rateLimitUser: '2/60' } });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  after(() => ctx.close());

  it('answers polls within the limit on the connection, and the one past it with a 429 from the route', async () => {
    const { mona } = ctx.seed.users;
    const queue = await ctx.services.queues.create(queueSpec(mona));
    const poll = `GET /api/v1/events?queue_id=${queue.id}&last_event_id=-1&dont_block=true HTTP/1.1\r\nHost: confab.test\r\nAuthorization: ${ApiClient.basic(mona.delivery_email, mona.api_key)}\r\n\r\n`;
    const [first, second, third] = await sendInTurn(port, [poll, poll, poll]);
    // Raw answers spell header names capitalized; Node's HTTP server writes them as given.
    assert.match(first!.head, /\r\nContent-Type: /);
    assert.deepEqual(second!.body, { result: 'success', msg: '', events: [], queue_id: queue.id });
    assert.match(third!.head, /^HTTP\/1\.1 429 /);
    assert.match(third!.head, /\r\nretry-after: 30\r\n/i);
    assert.deepEqual(third!.body, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 30 });
  });
});
