// Each bound of src/lib/limits.ts, at its edge: the largest accepted input works, one more gets
// the exact 400 naming the limit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  MAX_ALERT_WORDS_PER_USER,
  MAX_BODY_BYTES,
  MAX_DM_RECIPIENTS,
  MAX_DRAFTS_PER_CALL,
  MAX_FLAG_MESSAGE_IDS,
  MAX_JSON_DEPTH,
  MAX_LINKIFIER_PATTERN_LENGTH,
  MAX_LIST_ITEMS,
  MAX_NARROW_TERMS,
  MAX_QUEUES_PER_USER,
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_WORDS,
  MAX_SUBSCRIPTION_CHANGES,
  MAX_URL_TEMPLATE_LENGTH,
  chunks,
} from '../../src/lib/limits.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { cpuStopwatch } from '../support/cpu-time.js';

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe('chunks', () => {
  it('splits a list into pieces of at most the given size, in order', () => {
    assert.deepEqual(chunks([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
    assert.deepEqual(chunks([], 2), []);
    assert.equal(chunks(range(40_000)).length, 8);
  });
});

for (const dialect of testDialects()) {
  describe(`request limits [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const fetch = (narrow: unknown) => ctx.as('mark').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow });
    const flagNarrow = (narrow: unknown) =>
      ctx.as('mark').post('/messages/flags/narrow', { anchor: 'newest', num_before: 5, num_after: 0, op: 'add', flag: 'starred', narrow });
    const words = (n: number) => range(n).map((i) => `w${i}`).join(' ');

    it('takes narrows of up to MAX_NARROW_TERMS terms', async () => {
      const terms = (n: number) => range(n).map(() => ({ operator: 'is', operand: 'starred' }));
      expectSuccess(await fetch(terms(MAX_NARROW_TERMS)));
      expectError(await fetch(terms(MAX_NARROW_TERMS + 1)), `narrow is too long (limit: ${MAX_NARROW_TERMS} items)`);
      expectError(await flagNarrow(terms(3000)), `narrow is too long (limit: ${MAX_NARROW_TERMS} items)`);
      const queueNarrow = JSON.stringify(range(MAX_NARROW_TERMS + 1).map(() => ['is', 'starred']));
      expectError(await ctx.as('mark').post('/register', { narrow: queueNarrow }), `narrow is too long (limit: ${MAX_NARROW_TERMS} items)`);
    });

    it('bounds the length and the words of a narrow search, all search terms together', async () => {
      expectSuccess(await fetch([{ operator: 'search', operand: words(MAX_SEARCH_WORDS) }]));
      expectError(
        await fetch([{ operator: 'search', operand: words(MAX_SEARCH_WORDS + 1) }]),
        `Search query has too many words (limit: ${MAX_SEARCH_WORDS} words)`,
      );
      const half = words(MAX_SEARCH_WORDS / 2 + 1);
      expectError(
        await flagNarrow([{ operator: 'search', operand: half }, { operator: 'search', operand: half, negated: true }]),
        `Search query has too many words (limit: ${MAX_SEARCH_WORDS} words)`,
      );
      expectSuccess(await fetch([{ operator: 'search', operand: 'x'.repeat(MAX_SEARCH_LENGTH) }]));
      expectError(
        await flagNarrow([{ operator: 'search', operand: 'x'.repeat(MAX_SEARCH_LENGTH + 1) }]),
        `Search query is too long (limit: ${MAX_SEARCH_LENGTH} characters)`,
      );
      expectError(
        await fetch([{ operator: 'search', operand: 'x '.repeat(64_000) }]),
        `Search query is too long (limit: ${MAX_SEARCH_LENGTH} characters)`,
      );
    });

    it('bounds the users a dm narrow names', async () => {
      const tooMany = `operand is too long (limit: ${MAX_DM_RECIPIENTS} items)`;
      expectError(await fetch([{ operator: 'dm', operand: range(MAX_DM_RECIPIENTS + 1) }]), tooMany);
      expectError(await fetch([{ operator: 'dm', operand: range(MAX_DM_RECIPIENTS + 1).map((i) => `u${i}@x.test`).join(',') }]), tooMany);
    });

    it('takes up to MAX_FLAG_MESSAGE_IDS ids in /messages/flags', async () => {
      const id = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'limits', content: 'hi' })).id as number;
      const ids = Array.from({ length: MAX_FLAG_MESSAGE_IDS }, () => id);
      assert.deepEqual(expectSuccess(await ctx.as('mark').post('/messages/flags', { messages: ids, op: 'add', flag: 'starred' })).messages, ids);
      expectError(
        await ctx.as('mark').post('/messages/flags', { messages: range(40_000), op: 'add', flag: 'starred' }),
        `messages is too long (limit: ${MAX_FLAG_MESSAGE_IDS} items)`,
      );
    });

    it('bounds every other JSON list, and how deep any JSON value nests', async () => {
      expectError(
        await ctx.as('adam').patch('/realm/linkifiers', { ordered_linkifier_ids: range(MAX_LIST_ITEMS + 1) }),
        `ordered_linkifier_ids is too long (limit: ${MAX_LIST_ITEMS} items)`,
      );
      expectError(
        await ctx.as('mark').post('/users/me/subscriptions/properties', { subscription_data: range(MAX_LIST_ITEMS + 1).map(() => ({})) }),
        `subscription_data is too long (limit: ${MAX_LIST_ITEMS} items)`,
      );
      const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
      expectError(await ctx.as('mark').post('/messages/flags', { messages: deep, op: 'add', flag: 'starred' }), `messages is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`);
      expectError(
        await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'x', description: range(MAX_LIST_ITEMS + 1) }] }),
        `subscriptions[0]["description"] is too long (limit: ${MAX_LIST_ITEMS} items)`,
      );
    });

    it('bounds direct-message recipients when sending, typing and saving drafts', async () => {
      const many = range(MAX_DM_RECIPIENTS + 1, 100_000);
      const tooMany = (name: string) => `${name} is too long (limit: ${MAX_DM_RECIPIENTS} items)`;
      expectError(await ctx.as('mark').post('/messages', { type: 'direct', to: many, content: 'hi' }), tooMany('to'));
      expectError(await ctx.as('mark').post('/messages', { type: 'direct', to: many.map((i) => `u${i}@x.test`).join(','), content: 'hi' }), tooMany('to'));
      expectError(await ctx.as('mark').post('/typing', { op: 'start', to: many }), tooMany('to'));
      const draft = { type: 'private', to: many, topic: '', content: 'hi' };
      expectError(await ctx.as('mark').post('/drafts', { drafts: [draft] }), tooMany('drafts[0]["to"]'));
      const plain = { type: '', to: [], topic: '', content: 'hi' };
      expectError(
        await ctx.as('mark').post('/drafts', { drafts: range(MAX_DRAFTS_PER_CALL + 1).map(() => plain) }),
        `drafts is too long (limit: ${MAX_DRAFTS_PER_CALL} items)`,
      );
    });

    it('bounds users times channels in one subscribe or unsubscribe call', async () => {
      const principals = range(200, 100_000);
      const names = range(MAX_SUBSCRIPTION_CHANGES / 200 + 1).map((i) => `bulk ${i}`);
      const msg = `Too many subscription changes: 200 users and ${names.length} channels (limit: ${MAX_SUBSCRIPTION_CHANGES} pairs)`;
      expectError(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: names.map((name) => ({ name })), principals }), msg);
      expectError(await ctx.as('olivia').delete('/users/me/subscriptions', { subscriptions: names, principals }), msg);
      const own = range(MAX_LIST_ITEMS + 1).map((i) => ({ name: `solo ${i}` }));
      expectError(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: own }), `subscriptions is too long (limit: ${MAX_LIST_ITEMS} items)`);
    });

    it('bounds alert words per call and per user', async () => {
      const add = (list: string[]) => ctx.as('mona').post('/users/me/alert_words', { alert_words: list });
      const list = (n: number, prefix: string) => range(n).map((i) => `${prefix}${i}`);
      expectError(await add(list(MAX_ALERT_WORDS_PER_USER + 1, 'a')), `alert_words is too long (limit: ${MAX_ALERT_WORDS_PER_USER} items)`);
      expectError(await add(list(20_000, 'a')), `alert_words is too long (limit: ${MAX_ALERT_WORDS_PER_USER} items)`);
      assert.equal(expectSuccess(await add(list(MAX_ALERT_WORDS_PER_USER - 1, 'a'))).alert_words.length, MAX_ALERT_WORDS_PER_USER - 1);
      // Words the user already has do not count twice.
      assert.equal(expectSuccess(await add(['A1', 'b1'])).alert_words.length, MAX_ALERT_WORDS_PER_USER);
      expectError(await add(['c1']), `Too many alert words (limit: ${MAX_ALERT_WORDS_PER_USER} per user)`);
      const removed = await ctx.as('mona').delete('/users/me/alert_words', { alert_words: list(MAX_ALERT_WORDS_PER_USER + 1, 'z') });
      expectError(removed, `alert_words is too long (limit: ${MAX_ALERT_WORDS_PER_USER} items)`);
      expectSuccess(await ctx.as('mona').delete('/users/me/alert_words', { alert_words: ['b1'] }));
      assert.equal(expectSuccess(await add(['c1'])).alert_words.length, MAX_ALERT_WORDS_PER_USER);
    });

    it('keeps at most MAX_QUEUES_PER_USER queues per user, dropping the least recently used', async () => {
      const register = async () => expectSuccess(await ctx.as('milo').post('/register', { event_types: ['message'] })).queue_id as string;
      const poll = (queueId: string) => ctx.as('milo').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
      const first = await register();
      const second = await register();
      ctx.clock.advance(5);
      expectSuccess(await poll(first));
      const rest = [];
      for (let i = 2; i < MAX_QUEUES_PER_USER; i++) rest.push(await register());
      expectSuccess(await poll(rest[0]!));
      const newest = await register();
      // The second queue, untouched since it was made, is the least recently used.
      expectError(await poll(second), `Bad event queue ID: ${second}`, 'BAD_EVENT_QUEUE_ID');
      for (const queueId of [first, newest, ...rest]) expectSuccess(await poll(queueId));
      // Another user's queues are not touched.
      expectSuccess(await ctx.as('mark').post('/register', { event_types: ['message'] }));
    });

    it('refuses request bodies past MAX_BODY_BYTES before parsing them', async () => {
      const content = 'x'.repeat(MAX_BODY_BYTES);
      const res = await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'big', content }, { undocumented: true });
      expectError(res, 'Request body is too large', 'BAD_REQUEST', 413);
    });

    it('bounds the pattern and URL template of a linkifier', async () => {
      const add = (pattern: string, url_template: string) => ctx.as('adam').post('/realm/filters', { pattern, url_template });
      expectError(
        await add(`(?P<id>${'a'.repeat(MAX_LINKIFIER_PATTERN_LENGTH)})`, 'https://x.example/{id}'),
        `pattern is too long (limit: ${MAX_LINKIFIER_PATTERN_LENGTH} characters)`,
      );
      expectError(
        await add('B-(?P<id>[0-9]+)', `https://x.example/${'a'.repeat(MAX_URL_TEMPLATE_LENGTH)}/{id}`),
        `url_template is too long (limit: ${MAX_URL_TEMPLATE_LENGTH} characters)`,
      );
    });

    it('stops a pathological linkifier within the render budget', async () => {
      // Linear-time matching still reads to the end of the text once per match when an optional
      // tail may only fail there: thousands of matches make the render quadratic.
      expectSuccess(await ctx.as('adam').post('/realm/filters', { pattern: '(?P<id>a(( a)*q)?)', url_template: 'https://x.example/{id}' }));
      const linked = expectSuccess(await ctx.as('mark').post('/messages/render', { content: 'x a aq' }));
      assert.equal(linked.rendered, '<p>x <a href="https://x.example/a%20aq">a aq</a></p>');
      const content = `${'a '.repeat(4999)}`;
      for (const send of [
        () => ctx.as('mark').post('/messages/render', { content }),
        () => ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'linkifier', content }),
      ]) {
        const cpuMs = cpuStopwatch();
        expectError(await send(), 'Unable to render message');
        const took = cpuMs();
        assert.ok(took < 1500, `took ${took.toFixed(0)} ms of CPU`);
      }
    });
  });
}
