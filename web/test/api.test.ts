// The API module: Zulip's parameter encoding, the CSRF header on changes only, and errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, createApi, csrfToken } from '../src/api.js';

function recorder(status: number, body: unknown) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { calls, api: createApi({ fetch, cookie: () => 'other=1; csrftoken=tok%2Ben; x=2' }) };
}

describe('api module', () => {
  it('reads the CSRF token from its cookie', () => {
    assert.equal(csrfToken('a=1; csrftoken=abc'), 'abc');
    assert.equal(csrfToken('a=1'), '');
  });

  it('puts GET parameters in the query, JSON-encoding what is not a string, with no CSRF header', async () => {
    const { calls, api } = recorder(200, { result: 'success', msg: '', events: [{ id: 1, type: 'heartbeat' }] });
    const events = await api.getEvents('q1', 7);
    assert.deepEqual(events, [{ id: 1, type: 'heartbeat' }]);
    assert.equal(calls[0]!.url, '/json/events?queue_id=q1&last_event_id=7');
    assert.equal(calls[0]!.init.method, 'GET');
    assert.deepEqual(calls[0]!.init.headers, {});
  });

  it('posts a form with the X-CSRFToken header', async () => {
    const { calls, api } = recorder(200, { result: 'success', msg: '', id: 5 });
    assert.deepEqual(await api.sendMessage({ type: 'direct', to: [11], content: 'hi' }), { result: 'success', msg: '', id: 5 });
    assert.equal(calls[0]!.url, '/json/messages');
    assert.deepEqual(calls[0]!.init.headers, { 'X-CSRFToken': 'tok+en', 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(String(calls[0]!.init.body), 'type=direct&to=%5B11%5D&content=hi');
  });

  it('sends a message with its Idempotency-Key header, when given one', async () => {
    const { calls, api } = recorder(200, { result: 'success', msg: '', id: 5 });
    await api.sendMessage({ type: 'direct', to: [11], content: 'hi' }, '0123abcd');
    assert.deepEqual(calls[0]!.init.headers, { 'X-CSRFToken': 'tok+en', 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': '0123abcd' });
  });

  it("turns an error answer into an ApiError with the server's code and message", async () => {
    const { api } = recorder(400, { result: 'error', msg: 'Bad event queue ID: q1', code: 'BAD_EVENT_QUEUE_ID', queue_id: 'q1' });
    await assert.rejects(api.getEvents('q1', 0), (e: unknown) => e instanceof ApiError && e.code === 'BAD_EVENT_QUEUE_ID' && e.status === 400 && e.message === 'Bad event queue ID: q1');
  });

  it('names a non-JSON answer by its status', async () => {
    const fetch = (async () => new Response('<html>bad gateway</html>', { status: 502 })) as unknown as typeof globalThis.fetch;
    await assert.rejects(createApi({ fetch, cookie: () => '' }).getEvents('q', 0), (e: unknown) => e instanceof ApiError && e.code === 'NETWORK' && e.status === 502);
  });
});
