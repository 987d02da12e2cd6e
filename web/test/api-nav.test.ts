// The API calls of navigation: marking read by topic, stream or all, and the presence ping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApi } from '../src/api.js';

function recorder(body: unknown) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { calls, api: createApi({ fetch, cookie: () => 'csrftoken=t' }) };
}

describe('navigation api calls', () => {
  it('marks a topic, a stream or everything read', async () => {
    const { calls, api } = recorder({ result: 'success', msg: '' });
    await api.markTopicAsRead(42, 'lunch plans');
    await api.markStreamAsRead(42);
    await api.markAllAsRead();
    assert.deepEqual(
      calls.map((c) => [c.init.method, c.url, String(c.init.body)]),
      [
        ['POST', '/json/mark_topic_as_read', 'stream_id=42&topic_name=lunch+plans'],
        ['POST', '/json/mark_stream_as_read', 'stream_id=42'],
        ['POST', '/json/mark_all_as_read', ''],
      ],
    );
  });

  it("reports presence in the slim form and returns everyone's", async () => {
    const presences = { '7': { active_timestamp: 10, idle_timestamp: 12 } };
    const { calls, api } = recorder({ result: 'success', msg: '', presences, server_timestamp: 12 });
    assert.deepEqual((await api.updatePresence('idle')).presences, presences);
    assert.equal(calls[0]!.url, '/json/users/me/presence');
    assert.equal(String(calls[0]!.init.body), 'status=idle&slim_presence=true');
  });
});
