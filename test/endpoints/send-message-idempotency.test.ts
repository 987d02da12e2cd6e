// Retried sends: a request carrying an Idempotency-Key header (or the local_id and queue_id pair)
// that was already answered gets the first answer again and stores nothing new.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sweepIdempotencyKeys } from '../../src/actions/idempotency.js';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { type ApiResponse, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { FORM_COOKIE, withFormToken } from '../support/form-csrf.js';
import { testDialects } from '../support/dialects.js';

const REUSED = 'Idempotency-Key already used for a different request';

for (const dialect of testDialects()) {
  describe(`idempotent sends [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    beforeEach(() => ctx.clearEvents());

    const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });
    const send = (key: string, content: string, user: 'mark' | 'mona' = 'mark') =>
      ctx.as(user).post('/messages', { type: 'stream', to: 'general', topic: 'retries', content }, keyed(key));
    const stored = async (content: string) =>
      (await ctx.services.db.selectFrom('message').select('id').where('content', '=', content).execute()).map((m) => m.id);
    const messageEvents = () => ctx.events.filter((d) => d.event.type === 'message');
    const withoutHeaders = (res: ApiResponse) => ({ status: res.status, body: res.body });

    it('answers a retry with the first answer and stores one message', async () => {
      const first = await send('key-1', 'once only');
      const { id } = expectSuccess(first);
      const eventsAfterFirst = messageEvents().length;
      const retry = await send('key-1', 'once only');
      assert.deepEqual(withoutHeaders(retry), withoutHeaders(first));
      assert.deepEqual(await stored('once only'), [id]);
      assert.equal(messageEvents().length, eventsAfterFirst);
    });

    it('takes the local_id and queue_id pair as a key, and still echoes local_message_id', async () => {
      const { mark } = ctx.seed.users;
      const params = { type: 'stream', to: 'general', topic: 'retries', content: 'echoed once', queue_id: 'queue-a', local_id: '12.01' };
      const first = expectSuccess(await ctx.as('mark').post('/messages', params));
      const toMark = messageEvents().find((d) => d.users.includes(mark.id))!;
      assert.equal(toMark.event.local_message_id, '12.01');
      assert.equal(toMark.event.sender_queue_id, 'queue-a');
      const retry = expectSuccess(await ctx.as('mark').post('/messages', params));
      assert.equal(retry.id, first.id);
      assert.deepEqual(await stored('echoed once'), [first.id]);
      // The same local_id from another queue is another message.
      const other = expectSuccess(await ctx.as('mark').post('/messages', { ...params, queue_id: 'queue-b' }));
      assert.notEqual(other.id, first.id);
    });

    it('refuses the same key with a different request and stores nothing', async () => {
      expectSuccess(await send('key-2', 'the original'));
      const res = await ctx.as('mark').post(
        '/messages',
        { type: 'stream', to: 'general', topic: 'retries', content: 'something else' },
        { ...keyed('key-2'), undocumented: true },
      );
      expectError(res, REUSED, 'IDEMPOTENCY_KEY_REUSED', 422);
      assert.deepEqual(await stored('something else'), []);
      // A different pair value for a reused local_id is the same mistake.
      const pair = { type: 'stream', to: 'general', topic: 'retries', queue_id: 'queue-c', local_id: '3.01' };
      expectSuccess(await ctx.as('mark').post('/messages', { ...pair, content: 'first draft' }));
      expectError(await ctx.as('mark').post('/messages', { ...pair, content: 'second draft' }, { undocumented: true }), REUSED, 'IDEMPOTENCY_KEY_REUSED', 422);
    });

    it('keeps each user’s keys apart', async () => {
      const byMark = expectSuccess(await send('shared-key', 'same words', 'mark'));
      const byMona = expectSuccess(await send('shared-key', 'same words', 'mona'));
      assert.notEqual(byMona.id, byMark.id);
      assert.deepEqual((await stored('same words')).sort(), [byMark.id, byMona.id].sort());
    });

    it('stores one message for concurrent requests with the same key', async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => send('key-racing', 'raced')));
      const ids = new Set(answers.map((res) => expectSuccess(res).id));
      assert.equal(ids.size, 1);
      assert.deepEqual(await stored('raced'), [...ids]);
    });

    it('forgets a key after 24 hours, and the sweep removes it', async () => {
      const first = expectSuccess(await send('key-expiring', 'daily'));
      ctx.clock.advance(86_399);
      assert.equal(expectSuccess(await send('key-expiring', 'daily')).id, first.id);
      ctx.clock.advance(1);
      const later = expectSuccess(await send('key-expiring', 'daily'));
      assert.notEqual(later.id, first.id);
      assert.deepEqual((await stored('daily')).sort((a, b) => a - b), [first.id, later.id]);

      ctx.clock.advance(86_400);
      expectSuccess(await send('key-fresh', 'kept'));
      const before = await ctx.services.db.selectFrom('idempotency_key').select('expires').execute();
      const expired = before.filter((row) => row.expires <= ctx.clock.now()).length;
      assert.ok(expired >= 2);
      assert.equal(await sweepIdempotencyKeys(ctx.services, 1), expired);
      const left = await ctx.services.db.selectFrom('idempotency_key').select('expires').execute();
      assert.deepEqual(left.map((row) => row.expires), [ctx.clock.now() + 86_400]);
    });

    it('does not record refused sends, so their retry is tried again', async () => {
      const keys = () => ctx.services.db.selectFrom('idempotency_key').select('id').execute().then((rows) => rows.length);
      const before = await keys();
      const params = { type: 'stream', to: 'nowhere', topic: 'retries', content: 'lost' };
      expectError(await ctx.as('mark').post('/messages', params, keyed('key-refused')), "Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST');
      expectError(await ctx.as('mark').post('/messages', params, keyed('key-refused')), "Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST');
      assert.equal(await keys(), before);
    });

    it('refuses a malformed key', async () => {
      for (const key of ['', ' ', 'x'.repeat(256), 'caf\u00e9']) {
        const res = await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'retries', content: 'bad key' }, keyed(key));
        expectError(res, 'Invalid Idempotency-Key header: 1 to 255 printable ASCII characters expected');
      }
      assert.deepEqual(await stored('bad key'), []);
    });

    it('honours the header on the web client’s /json route, beside its session and CSRF headers', async () => {
      const host = 'confab.test';
      const login = await ctx.app.inject({
        method: 'POST',
        url: '/accounts/login/',
        headers: { host, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(withFormToken({ username: 'mark@confab.test', password: DEV_PASSWORD })).toString(),
      });
      const cookies = ([] as string[]).concat(login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!);
      const csrf = cookies.find((c) => c.startsWith('csrftoken='))!.slice('csrftoken='.length);
      const sendFromBrowser = () =>
        ctx.app.inject({
          method: 'POST',
          url: '/json/messages',
          headers: { host, cookie: cookies.join('; '), 'x-csrftoken': csrf, 'idempotency-key': 'key-browser', 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ type: 'stream', to: 'general', topic: 'retries', content: 'from the browser' }).toString(),
        });
      const first = await sendFromBrowser();
      assert.equal(first.statusCode, 200, first.body);
      const retry = await sendFromBrowser();
      assert.deepEqual({ status: retry.statusCode, body: retry.json() }, { status: 200, body: first.json() });
      assert.deepEqual(await stored('from the browser'), [first.json().id]);
    });

    it('answers a retried scheduled message with the first answer', async () => {
      const params = { type: 'stream', to: ctx.seed.streams.general.id, topic: 'later', content: 'scheduled once', scheduled_delivery_timestamp: ctx.clock.now() + 3600 };
      const first = expectSuccess(await ctx.as('mark').post('/scheduled_messages', params, keyed('key-scheduled')));
      const retry = expectSuccess(await ctx.as('mark').post('/scheduled_messages', params, keyed('key-scheduled')));
      assert.equal(retry.scheduled_message_id, first.scheduled_message_id);
      const rows = await ctx.services.db.selectFrom('scheduled_message').select('id').where('content', '=', 'scheduled once').execute();
      assert.deepEqual(rows.map((r) => r.id), [first.scheduled_message_id]);
      // A key used for a message cannot stand for a scheduled one.
      expectSuccess(await send('key-message', 'sent now'));
      expectError(
        await ctx.as('mark').post('/scheduled_messages', params, { ...keyed('key-message'), undocumented: true }),
        REUSED,
        'IDEMPOTENCY_KEY_REUSED',
        422,
      );
    });
  });
}
