// A bot author's session with the real zulip-js client against a real server on a free port:
// every call goes through zulip-js unmodified (multipart bodies, query strings as it builds them).
// The same session runs against one process and against three behind nginx (support/e2e-targets.ts).
import assert from 'node:assert/strict';
import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import zulip, { type Client } from 'zulip-js';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { E2E_TARGETS, type E2eServer, eventsUntil } from '../support/e2e-targets.js';

for (const target of E2E_TARGETS) describe(`zulip-js against a running Confab: ${target.name}`, { skip: target.skip }, () => {
  let server: E2eServer;
  let mark: Client;
  let mona: Client;

  before(async () => {
    server = await target.start('e2e');
    // One client logs in with a password (POST /fetch_api_key, multipart), the other with a key.
    mark = await zulip({ realm: server.url, username: 'mark@confab.test', password: DEV_PASSWORD });
    const monaKey = await zulip({ realm: server.url, username: 'mona@confab.test', password: DEV_PASSWORD });
    mona = await zulip({ realm: server.url, username: 'mona@confab.test', apiKey: monaKey.config.apiKey });
  });

  after(() => server?.stop());

  it('reads the server settings and the users', async () => {
    const settings = await mark.server.settings();
    assert.equal(settings.result, 'success');
    assert.equal(settings.zulip_feature_level, 229);
    const me = await mark.users.me.getProfile();
    assert.equal(me.email, 'mark@confab.test');
    const users = await mark.users.retrieve();
    assert.ok(users.members.some((u: { email: string }) => u.email === 'mona@confab.test'));
  });

  it('sends a stream message and a direct message, and finds them with a narrow', async () => {
    const stream = await mark.messages.send({ type: 'stream', to: 'general', topic: 'from zulip-js', content: 'Hello from a bot' });
    assert.equal(stream.result, 'success', JSON.stringify(stream));
    const monaId = (await mona.users.me.getProfile()).user_id;
    const direct = await mark.messages.send({ type: 'private', to: [monaId], content: 'Just for you' });
    assert.equal(direct.result, 'success', JSON.stringify(direct));
    const found = await mona.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'stream', operand: 'general' }, { operator: 'topic', operand: 'from zulip-js' }],
    });
    assert.equal(found.result, 'success', JSON.stringify(found));
    assert.deepEqual(found.messages.map((m: { id: number }) => m.id), [stream.id]);
    assert.equal(found.messages[0].content, '<p>Hello from a bot</p>');
  });

  it('registers a queue and receives a message event by long-polling', async () => {
    const queue = await mona.queues.register({ event_types: ['message'] });
    assert.equal(queue.result, 'success', JSON.stringify(queue));
    const poll = mona.events.retrieve({ queue_id: queue.queue_id, last_event_id: queue.last_event_id });
    const sent = await mark.messages.send({ type: 'stream', to: 'general', topic: 'events', content: 'Are you there?' });
    const answer = await poll;
    assert.equal(answer.result, 'success', JSON.stringify(answer));
    const event = answer.events.find((e: { type: string }) => e.type === 'message');
    assert.equal(event.message.id, sent.id);
    assert.deepEqual(event.flags, []);
    const gone = await mona.queues.deregister({ queue_id: queue.queue_id });
    assert.equal(gone.result, 'success', JSON.stringify(gone));
  });

  it('marks a message read and receives the flag event', async () => {
    const sent = await mark.messages.send({ type: 'stream', to: 'general', topic: 'flags', content: 'Read me' });
    const queue = await mona.queues.register({ event_types: ['update_message_flags'] });
    const marked = await mona.messages.flags.add({ flag: 'read', messages: [sent.id] });
    assert.equal(marked.result, 'success', JSON.stringify(marked));
    assert.deepEqual(marked.messages, [sent.id]);
    const events = await eventsUntil(mona, queue, (received) => received.some((e) => e.type === 'update_message_flags'));
    const event = events.find((e) => e.type === 'update_message_flags')!;
    assert.deepEqual({ op: event.op, flag: event.flag, messages: event.messages }, { op: 'add', flag: 'read', messages: [sent.id] });
  });

  it('sends typing notifications that the other side receives', async () => {
    const queue = await mona.queues.register({ event_types: ['typing'] });
    const monaId = (await mona.users.me.getProfile()).user_id;
    const start = await mark.typing.send({ to: [monaId], op: 'start' });
    assert.equal(start.result, 'success', JSON.stringify(start));
    const stop = await mark.typing.send({ to: [monaId], op: 'stop' });
    assert.equal(stop.result, 'success', JSON.stringify(stop));
    const events = await eventsUntil(mona, queue, (received) => received.length >= 2);
    assert.deepEqual(events.map((e) => `${e.type}:${e.op}`), ['typing:start', 'typing:stop']);
  });

  it('uploads a file that another user downloads, with credentials and through a temporary URL', async () => {
    const path = join(server.dataDir, 'report.txt');
    writeFileSync(path, 'quarterly numbers');
    const uploaded = await mark.callEndpoint('/user_uploads', 'POST', { file: createReadStream(path) });
    assert.equal(uploaded.result, 'success', JSON.stringify(uploaded));
    assert.match(uploaded.uri, /^\/user_uploads\/\d+\/[0-9a-f]{2}\/[\w-]{24}\/report\.txt$/);
    const sent = await mark.messages.send({ type: 'stream', to: 'general', topic: 'files', content: `[report](${uploaded.uri})` });
    assert.equal(sent.result, 'success', JSON.stringify(sent));
    const auth = `Basic ${Buffer.from(`mona@confab.test:${mona.config.apiKey}`).toString('base64')}`;
    const download = await fetch(server.url + uploaded.uri, { headers: { authorization: auth } });
    assert.equal(download.status, 200);
    assert.equal(await download.text(), 'quarterly numbers');
    assert.equal(download.headers.get('content-disposition'), 'inline; filename="report.txt"');
    const temporary = await mona.callEndpoint(uploaded.uri, 'GET');
    assert.equal(temporary.result, 'success', JSON.stringify(temporary));
    const anonymous = await fetch(server.url + temporary.url);
    assert.equal(await anonymous.text(), 'quarterly numbers');
  });
});
