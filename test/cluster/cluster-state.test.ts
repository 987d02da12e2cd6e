// Three Confab processes reaching PostgreSQL through a TCP proxy the test closes and opens (the
// machine's PostgreSQL is untouched): what one process keeps in memory follows a change made
// through another at once (the user, stream and realm lists, the poll credential cache, settings
// register reads, linkifiers, presence, mutes and alert words, rate-limit counters); /metrics counts
// Redis round trips;
// and while PostgreSQL is away (as a restart looks to its clients: connections cut, new ones
// refused) every process answers 503 DATABASE_UNAVAILABLE and reports itself unready, none exits,
// and afterwards sends, fetches and events work through every process with the queues kept. Last,
// a graceful stop whose hand-off no member confirms keeps the queues in the store for the next member.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { ClusterApi, type Queue } from '../support/cluster-api.js';
import { type Member, startCluster, type TestCluster, TEST_REDIS_URL } from '../support/cluster.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const UNAVAILABLE = { result: 'error', msg: 'The database is unavailable; try again later', code: 'DATABASE_UNAVAILABLE', 'retry-after': 5 };

describe('three processes sharing state, and PostgreSQL going away', { skip: !TEST_REDIS_URL && 'needs TEST_DATABASE_URL (and Redis at TEST_REDIS_URL)' }, () => {
  let proxy: TcpProxy;
  let cluster: TestCluster;
  let api: ClusterApi;
  let a: Member;
  let b: Member;
  const ids = new Map<string, number>();

  before(async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.open();
    // Rate limits on, loose but for password logins, to show their counters are shared.
    const limits = ['--rate-limits', 'on', '--rate-limit-user', '100000/60', '--rate-limit-ip', '100000/60', '--rate-limit-auth-ip', '100000/60', '--rate-limit-login', '2/1800'];
    cluster = await startCluster(3, ['--metrics', ...limits], { databasePort: proxy.port });
    [a, b] = cluster.members as [Member, Member];
    api = await ClusterApi.login(a.url, ['mark', 'mona', 'milo', 'olivia']);
    for (const who of ['mark', 'mona', 'milo']) ids.set(who, Number((await api.call(a.url, who, 'GET', '/users/me')).body.user_id));
  });

  after(async () => {
    // A test that failed while PostgreSQL was away leaves the proxy closed: the members need it to stop.
    if (proxy && !proxy.isOpen) await proxy.open();
    await cluster?.stop();
    await proxy?.close();
  });

  const send = (base: string, who: string, content: string, topic = 'state') => api.call(base, who, 'POST', '/messages', { type: 'stream', to: 'general', topic, content });
  const fetchOne = async (base: string, who: string, id: number) => {
    const res = await api.call(base, who, 'GET', '/messages', { anchor: String(id), num_before: '0', num_after: '0' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.messages as { id: number; content: string; flags: string[] }[])[0]!;
  };

  it('refuses a user deactivated through another process at once, polls included, and lists them as inactive', async () => {
    // Milo's credentials are checked, and remembered, by B's poll path and request path first.
    const queue = await api.register(b.url, 'milo', ['message']);
    const poll = () => api.call(b.url, 'milo', 'GET', '/events', { queue_id: queue.queueId, last_event_id: String(queue.last), dont_block: 'true' });
    assert.equal((await poll()).status, 200);
    assert.equal((await api.call(b.url, 'milo', 'GET', '/users/me')).status, 200);
    assert.equal((await api.call(b.url, 'mark', 'GET', '/users')).status, 200);

    assert.equal((await api.call(a.url, 'olivia', 'DELETE', `/users/${ids.get('milo')}`)).status, 200);
    for (const res of [await poll(), await api.call(b.url, 'milo', 'GET', '/users/me')]) {
      assert.deepEqual({ status: res.status, body: res.body }, { status: 401, body: { result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' } });
    }
    const users = (await api.call(b.url, 'mark', 'GET', '/users')).body.members as { user_id: number; is_active: boolean }[];
    assert.equal(users.find((u) => u.user_id === ids.get('milo'))?.is_active, false);

    assert.equal((await api.call(a.url, 'olivia', 'POST', `/users/${ids.get('milo')}/reactivate`)).status, 200);
    assert.equal((await api.call(b.url, 'milo', 'GET', '/users/me')).status, 200);
  });

  it('lists a stream created through another process, and registers with realm and user settings changed there', async () => {
    assert.equal((await api.call(b.url, 'mona', 'GET', '/streams')).status, 200);
    assert.equal((await api.call(b.url, 'mark', 'POST', '/register', { fetch_event_types: '["realm","user_settings"]' })).status, 200);

    assert.equal((await api.call(a.url, 'mark', 'POST', '/users/me/subscriptions', { subscriptions: '[{"name":"made on a"}]' })).status, 200);
    const streams = (await api.call(b.url, 'mona', 'GET', '/streams')).body.streams as { name: string }[];
    assert.ok(streams.some((s) => s.name === 'made on a'), 'the stream is listed through the other process');

    assert.equal((await api.call(a.url, 'olivia', 'PATCH', '/realm', { name: 'Renamed on A' })).status, 200);
    assert.equal((await api.call(a.url, 'mark', 'PATCH', '/settings', { twenty_four_hour_time: 'true' })).status, 200);
    const state = (await api.call(b.url, 'mark', 'POST', '/register', { fetch_event_types: '["realm","user_settings"]' })).body;
    assert.equal(state.realm_name, 'Renamed on A');
    assert.equal((state.user_settings as { twenty_four_hour_time: boolean }).twenty_four_hour_time, true);
    assert.equal((await fetch(`${b.url}/api/v1/server_settings`).then((r) => r.json() as Promise<{ realm_name: string }>)).realm_name, 'Renamed on A');
  });

  it('renders with a linkifier added through another process, and drops it when deleted there', async () => {
    // B renders (and keeps its compiled linkifiers) before the change.
    assert.equal((await fetchOne(b.url, 'mona', Number((await send(b.url, 'mona', 'ticket #41')).body.id))).content, '<p>ticket #41</p>');
    const added = await api.call(a.url, 'olivia', 'POST', '/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const linked = await fetchOne(b.url, 'mona', Number((await send(b.url, 'mona', 'ticket #42')).body.id));
    assert.equal(linked.content, '<p>ticket <a href="https://tracker.example/42">#42</a></p>');
    assert.equal((await api.call(a.url, 'olivia', 'DELETE', `/realm/filters/${added.body.id}`)).status, 200);
    assert.equal((await fetchOne(b.url, 'mona', Number((await send(b.url, 'mona', 'ticket #43')).body.id))).content, '<p>ticket #43</p>');
  });

  it('applies mutes, alert words and presence set through another process at once', async () => {
    const first = await send(b.url, 'milo', 'before the mute');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual((await fetchOne(b.url, 'mona', Number(first.body.id))).flags, []);
    assert.equal((await api.call(a.url, 'mona', 'POST', `/users/me/muted_users/${ids.get('milo')}`)).status, 200);
    assert.equal((await api.call(a.url, 'mona', 'POST', '/users/me/alert_words', { alert_words: '["pineapple"]' })).status, 200);
    const muted = await send(b.url, 'milo', 'after the mute');
    assert.deepEqual((await fetchOne(b.url, 'mona', Number(muted.body.id))).flags, ['read']);
    const alert = await send(b.url, 'mark', 'a pineapple for everyone');
    assert.deepEqual((await fetchOne(b.url, 'mona', Number(alert.body.id))).flags, ['has_alert_word']);

    // B keeps the organization's presence answer for the current second: A's write reaches it.
    assert.equal((await api.call(b.url, 'mona', 'POST', '/users/me/presence', { status: 'active' })).status, 200);
    assert.equal((await api.call(a.url, 'mark', 'POST', '/users/me/presence', { status: 'active', slim_presence: 'true' })).status, 200);
    const seen = await api.call(b.url, 'mona', 'POST', '/users/me/presence', { status: 'active', slim_presence: 'true' });
    assert.ok((seen.body.presences as Record<string, { active_timestamp: number }>)[String(ids.get('mark'))]?.active_timestamp > 0, JSON.stringify(seen.body));
  });

  it('counts password logins for one account across processes', async () => {
    const login = (member: Member, password: string) =>
      fetch(`${member.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'gus@confab.test', password }) });
    const [, , c] = cluster.members as [Member, Member, Member];
    for (const member of [a, b]) assert.equal((await login(member, 'a wrong guess')).status, 401);
    const refused = await login(c, DEV_PASSWORD);
    assert.equal(refused.status, 429);
    assert.equal(((await refused.json()) as { code: string }).code, 'RATE_LIMIT_HIT');
  });

  it('counts Redis round trips in /metrics, by command', async () => {
    const text = await fetch(`${a.url}/metrics`).then((r) => r.text());
    // Batches are published by a script, the member's address renewed, Redis pinged by readiness checks.
    for (const command of ['eval', 'set', 'ping']) {
      const count = new RegExp(`^confab_redis_commands_total\\{command="${command}",result="ok"\\} (\\d+)$`, 'm').exec(text);
      assert.ok(count && Number(count[1]) > 0, `${command} counted`);
      assert.match(text, new RegExp(`^confab_redis_command_duration_seconds_count\\{command="${command}"\\} [1-9]\\d*$`, 'm'));
    }
  });

  it('answers 503 while PostgreSQL is away, stays up and unready, then recovers with its queues', async () => {
    const members = cluster.members;
    const queues: Queue[] = [];
    for (const member of members) queues.push(await api.register(member.url, 'mark', ['message']));

    await proxy.close();
    for (const [i, member] of members.entries()) {
      const ready = await fetch(`${member.url}/health/ready`);
      const body = (await ready.json()) as { status: string; checks: Record<string, string> };
      assert.deepEqual([ready.status, body.status, body.checks.redis], [503, 'unavailable', 'ok']);
      assert.notEqual(body.checks.database, 'ok');
      assert.equal((await fetch(`${member.url}/health/live`)).status, 200);
      const next = members[(i + 1) % members.length]!;
      for (const res of [
        await api.call(member.url, 'mona', 'GET', '/users/me'),
        await send(member.url, 'mona', 'while the database is away'),
        // A poll of a queue another process holds: passed on, and the holder's answer comes back.
        await api.call(member.url, 'mark', 'GET', '/events', { queue_id: queues[(i + 1) % members.length]!.queueId, last_event_id: '-1', dont_block: 'true' }),
      ]) {
        assert.deepEqual({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body }, { status: 503, retryAfter: '5', body: UNAVAILABLE }, next.url);
      }
    }

    await proxy.open();
    const end = Date.now() + 20_000;
    for (const member of members) {
      while ((await fetch(`${member.url}/health/ready`)).status !== 200) {
        assert.ok(Date.now() < end, 'ready again within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    for (const member of members) assert.deepEqual([member.process.exitCode, member.process.signalCode], [null, null]);
    const sent: number[] = [];
    for (const member of members) {
      const res = await send(member.url, 'mona', `back through ${member.port}`, 'back');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      sent.push(Number(res.body.id));
    }
    // Every queue made before the outage gets every message, polled through another process.
    for (const [i, queue] of queues.entries()) {
      const through = members[(i + 2) % members.length]!.url;
      const got = [];
      for (let n = 0; n < sent.length; n++) got.push(((await api.next(through, 'mark', queue, 'message')).message as { id: number }).id);
      assert.deepEqual(got, sent);
    }
    const history = await api.call(b.url, 'mark', 'GET', '/messages', { anchor: 'newest', num_before: '3', num_after: '0', narrow: '[{"operator":"topic","operand":"back"}]' });
    assert.deepEqual((history.body.messages as { id: number }[]).map((m) => m.id), sent);
  });

  it('keeps a stopping process\'s queues when no member confirms taking them, for the next member to start', async () => {
    const [stopping, dead, hung] = cluster.members as [Member, Member, Member];
    const queue = await api.register(stopping.url, 'mark', ['message']);
    // One receiver is killed (its address stays in Redis for a while), the other hangs: neither claims the queues.
    dead.process.kill('SIGKILL');
    hung.process.kill('SIGSTOP');
    try {
      const exited = new Promise((resolve) => stopping.process.once('exit', resolve));
      stopping.process.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      hung.process.kill('SIGCONT');
    }
    assert.match(stopping.output.join(''), /did not take this process's event queues/);
    // The hung member, running again, finds the offer withdrawn; the member that starts next takes the saved queues.
    const next = await cluster.start();
    const sent = await send(hung.url, 'mona', 'to a queue that was saved', 'handoff');
    assert.equal(sent.status, 200);
    const event = await api.next(hung.url, 'mark', queue, 'message');
    assert.equal((event.message as { id: number }).id, sent.body.id);
    assert.equal((await api.call(next.url, 'mark', 'GET', '/events', { queue_id: queue.queueId, last_event_id: String(queue.last), dont_block: 'true' })).status, 200);
  });
});
