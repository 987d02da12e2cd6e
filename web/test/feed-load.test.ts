// The feed's fetching without a browser: what it asks GET /messages for when a narrow opens and when
// it scrolls toward either end, the range it keeps, where it lands, and the answers it drops.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';

type Reply = { messages: { id: number }[]; anchor?: number; found_anchor?: boolean; found_oldest: boolean; found_newest: boolean };
const requests: URLSearchParams[] = [];
let answer: (query: URLSearchParams) => Promise<Reply> = async () => ({ messages: [], found_oldest: true, found_newest: true });

// The store reads the page's address and cookie, and the API calls fetch: stand-ins for all three,
// only while these tests run (other test files in the same process use the real fetch).
const standIns = {
  location: { hash: '' },
  document: { cookie: '' },
  fetch: async (url: string) => {
    const query = new URLSearchParams(url.split('?')[1] ?? '');
    requests.push(query);
    const body = { result: 'success', msg: '', ...(await answer(query)) };
    return { ok: true, status: 200, json: async () => body } as Response;
  },
};
const originals = Object.fromEntries(Object.keys(standIns).map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));

function useStandIns(on: boolean): void {
  for (const [name, value] of Object.entries(standIns)) {
    const original = originals[name];
    if (on) Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
    else if (original) Object.defineProperty(globalThis, name, original);
    else delete (globalThis as Record<string, unknown>)[name];
  }
}

const message = (id: number) => ({ id, sender_id: 2, sender_full_name: 'B', sender_email: 'b@x', content: `m${id}`, timestamp: 0, type: 'stream', stream_id: 1, subject: 't', display_recipient: 'general', flags: [] });
const reply = (ids: number[], rest: Omit<Reply, 'messages'>) => ({ ...rest, messages: ids.map(message) });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('fetching for the feed', async () => {
  let load: typeof import('../src/feed-load.js');
  let store: typeof import('../src/store.js');
  let model: typeof import('../src/model.js');
  before(async () => {
    useStandIns(true);
    store = await import('../src/store.js');
    model = await import('../src/model.js');
    load = await import('../src/feed-load.js');
  });
  after(() => useStandIns(false));
  beforeEach(() => {
    requests.length = 0;
    store.model.value = model.fromRegister({ user_id: 1, subscriptions: [{ stream_id: 1, name: 'general', color: '' }] });
    store.narrow.value = { kind: 'stream', streamId: 1 };
  });

  it('opens a narrow at its first unread message, with a batch on each side, and lands there', async () => {
    answer = async () => reply(range(101, 250), { anchor: 150, found_anchor: true, found_oldest: false, found_newest: true });
    await load.openNarrow({ kind: 'stream', streamId: 1 });
    const query = requests[0]!;
    assert.equal(query.get('anchor'), 'first_unread');
    assert.equal(query.get('num_before'), String(load.OPEN_BATCH));
    assert.equal(query.get('num_after'), String(load.OPEN_BATCH));
    assert.equal(query.get('include_anchor'), 'true');
    assert.equal(query.get('narrow'), JSON.stringify([{ operator: 'stream', operand: 1 }]));
    assert.deepEqual(load.ranges.value.get('#narrow/stream/1-1'), { oldestId: 101, newestId: 250, foundOldest: false, foundNewest: true });
    assert.deepEqual(load.landing.value, { key: '#narrow/stream/1-1', messageId: 150 });
    assert.equal(store.selectedId.value, 150);
    assert.deepEqual(load.feedMessages()!.map((m) => m.id), range(101, 250));
  });

  it('lands on the newest message when nothing is unread', async () => {
    answer = async () => reply(range(1, 40), { anchor: 10_000_000_000_000_000, found_anchor: false, found_oldest: true, found_newest: true });
    await load.openNarrow({ kind: 'stream', streamId: 1 });
    assert.equal(load.landing.value!.messageId, 'newest');
    assert.equal(store.selectedId.value, 40);
  });

  it('fetches older messages from just before the oldest loaded one, once at a time, and stops at the oldest', async () => {
    answer = async () => reply(range(101, 250), { anchor: 150, found_anchor: true, found_oldest: false, found_newest: true });
    await load.openNarrow({ kind: 'stream', streamId: 1 });
    requests.length = 0;
    answer = async () => reply(range(1, 100), { found_oldest: true, found_newest: false });
    await Promise.all([load.loadMore('older'), load.loadMore('older')]);
    assert.equal(requests.length, 1, 'the second call waits for the first');
    assert.equal(requests[0]!.get('anchor'), '101');
    assert.equal(requests[0]!.get('num_before'), String(load.SCROLL_BATCH));
    assert.equal(requests[0]!.get('num_after'), '0');
    assert.equal(requests[0]!.get('include_anchor'), 'false');
    assert.deepEqual(load.ranges.value.get('#narrow/stream/1-1'), { oldestId: 1, newestId: 250, foundOldest: true, foundNewest: true });
    await load.loadMore('older');
    await load.loadMore('newer');
    assert.equal(requests.length, 1, 'both ends are reached: nothing more to fetch');
  });

  it('leaves out loaded messages the fetched range does not reach, and drops a batch for an earlier opening', async () => {
    answer = async () => reply(range(200, 220), { anchor: 210, found_anchor: true, found_oldest: false, found_newest: false });
    await load.openNarrow({ kind: 'stream', streamId: 1 });
    // A message this narrow shows, loaded elsewhere, far newer than the range: not shown (a gap).
    store.model.value!.messages.set(900, message(900) as never);
    assert.deepEqual(load.feedMessages()!.map((m) => m.id), range(200, 220));
    let release: () => void = () => undefined;
    answer = () => new Promise((resolve) => (release = () => resolve(reply(range(221, 240), { found_oldest: false, found_newest: false }))));
    const newer = load.loadMore('newer');
    answer = async () => reply(range(300, 320), { anchor: 310, found_anchor: true, found_oldest: false, found_newest: true });
    await load.openNarrow({ kind: 'stream', streamId: 1 });
    release();
    await newer;
    assert.deepEqual(load.ranges.value.get('#narrow/stream/1-1'), { oldestId: 300, newestId: 320, foundOldest: false, foundNewest: true });
  });
});
