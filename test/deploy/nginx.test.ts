// deploy/nginx-confab.conf, run by Debian's nginx in front of a real Confab: API requests, long
// polls on reused upstream connections, a 20 MB upload and its download, and a browser login
// (which needs the Host header passed through) all work through it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defaultConfig } from '../../src/config.js';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { FORM_COOKIE, withFormToken } from '../support/form-csrf.js';
import { multipartBody } from '../support/multipart.js';
import { NGINX_SITE, type RunningNginx, startNginx } from '../support/nginx.js';
import { startTestServer, type TestServer } from '../support/running-server.js';

describe('nginx in front of Confab (deploy/nginx-confab.conf)', () => {
  let confab: TestServer;
  let nginx: RunningNginx;
  let base: string;
  let auth: string;

  before(async () => {
    confab = await startTestServer('nginx');
    nginx = await startNginx([Number(new URL(confab.url).port)]);
    base = nginx.url;
    const key = await fetch(`${base}/api/v1/fetch_api_key`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'mark@confab.test', password: DEV_PASSWORD }),
    }).then((r) => r.json() as Promise<{ api_key: string }>);
    auth = `Basic ${Buffer.from(`mark@confab.test:${key.api_key}`).toString('base64')}`;
  });

  after(async () => {
    nginx?.stop();
    await confab?.stop();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${base}/api/v1${path}`, { ...init, headers: { authorization: auth, ...(init.headers as Record<string, string>) } });

  it('waits longer for an event poll than the longest heartbeat', () => {
    const seconds = Number(/proxy_read_timeout (\d+)s;/.exec(NGINX_SITE)?.[1]);
    assert.ok(seconds > defaultConfig.heartbeatMaxSeconds + 10, `proxy_read_timeout ${seconds}s`);
  });

  it('answers API requests as Confab does directly', async () => {
    const direct = await fetch(`${confab.url}/api/v1/server_settings`).then((r) => r.json() as Promise<Record<string, unknown>>);
    const proxied = await fetch(`${base}/api/v1/server_settings`);
    assert.equal(proxied.status, 200);
    assert.deepEqual(await proxied.json(), direct);
  });

  it('delivers events to long polls that wait through the proxy, poll after poll', async () => {
    const registered = (await (await api('/register', { method: 'POST', body: new URLSearchParams({ event_types: '["message"]' }) })).json()) as { queue_id: string; last_event_id: number };
    let last = registered.last_event_id;
    for (const content of ['first through nginx', 'second through nginx']) {
      const poll = api(`/events?queue_id=${registered.queue_id}&last_event_id=${last}`);
      // The poll is waiting before the message is sent.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const sent = await api('/messages', { method: 'POST', body: new URLSearchParams({ type: 'stream', to: 'general', topic: 'proxy', content }) });
      assert.equal(sent.status, 200);
      const answer = (await (await poll).json()) as { result: string; events: { id: number; type: string; message: { content: string } }[] };
      assert.equal(answer.result, 'success');
      const event = answer.events.find((e) => e.type === 'message');
      assert.equal(event?.message.content, content);
      last = answer.events.at(-1)!.id;
    }
  });

  it('takes a 20 MB upload and serves it back whole', async () => {
    const bytes = Buffer.alloc(20 * 1024 * 1024, 7);
    // Built by hand: zulip-js, loaded by other test files in the same process, replaces the global FormData.
    const form = multipartBody([{ name: 'file', value: bytes, filename: 'big.bin', contentType: 'application/octet-stream' }]);
    const res = await api('/user_uploads', { method: 'POST', body: new Uint8Array(form.payload), headers: { 'content-type': form.contentType } });
    assert.equal(res.status, 200);
    const { uri } = (await res.json()) as { uri: string };
    assert.match(uri, /^\/user_uploads\/\d+\/.+\/big\.bin$/);
    const download = await fetch(`${base}${uri}`, { headers: { authorization: auth } });
    assert.equal(download.status, 200);
    assert.equal(Buffer.from(await download.arrayBuffer()).equals(bytes), true);
  });

  it('logs a browser in: the Host header reaches Confab, so the Origin check passes', async () => {
    const res = await fetch(`${base}/accounts/login/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: base, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(withFormToken({ username: 'mark@confab.test', password: DEV_PASSWORD })),
    });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/');
    assert.match(res.headers.get('set-cookie') ?? '', /confab_session=/);
  });
});
