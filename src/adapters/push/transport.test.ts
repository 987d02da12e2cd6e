import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LogPushTransport } from './log.js';
import { basePayload, testNotificationPayload } from './transport.js';

const realm = { id: 2, name: 'Acme', url: 'https://chat.acme.test' };

describe('push payloads', () => {
  it('carries the server, realm and user in every notification', () => {
    assert.deepEqual(basePayload(realm, 9), {
      server: 'chat.acme.test', realm_id: 2, realm_name: 'Acme', realm_uri: 'https://chat.acme.test', realm_url: 'https://chat.acme.test', user_id: 9,
    });
    assert.equal(basePayload({ ...realm, url: 'not a url' }, 9).server, '');
  });

  it('builds the test notification for Android and iOS', () => {
    const base = basePayload(realm, 9);
    assert.deepEqual(testNotificationPayload({ kind: 2 }, base, 1234.9), { ...base, event: 'test', time: 1234 });
    assert.deepEqual(testNotificationPayload({ kind: 1 }, base, 1234), {
      alert: { title: 'Test notification', body: 'This is a test notification from Acme (https://chat.acme.test).' },
      sound: 'default',
      custom: { zulip: { ...base, event: 'test' } },
    });
  });

  it('logs deliveries and keeps the latest hundred', async () => {
    const lines: string[] = [];
    const transport = new LogPushTransport({ info: (_object, message) => void lines.push(message) });
    const device = { userId: 9, kind: 2, token: 't', iosAppId: null };
    for (let i = 0; i < 101; i++) await transport.register(device);
    await transport.sendTest(device, basePayload(realm, 9), 0);
    assert.equal(transport.recent.length, 100);
    assert.equal(transport.recent.at(-1)!.kind, 'test');
    assert.equal(lines.at(-1), 'push test (log transport)');
  });
});
