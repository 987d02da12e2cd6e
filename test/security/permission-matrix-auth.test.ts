// Permission matrix, credentials: every read route answers a deactivated user, and anyone
// presenting credentials to an organization they do not belong to, with the reference's 401
// (every Basic-auth failure is code UNAUTHORIZED with the Basic challenge; the text says why).
// The route list is checked against src/routes.ts, so a new read route must join the matrix.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '../../src/routes.js';
import type { ApiResponse } from '../support/client.js';
import { OTHER_HOST } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { buildMatrix, DEV_HOST, expectRefusal, type HostClient, type Matrix, refusal } from './matrix-fixture.js';

interface ReadRoute {
  method: 'GET' | 'POST';
  /** As src/routes.ts spells it. */
  route: string;
  path(m: Matrix): string;
  params?(m: Matrix): Record<string, unknown>;
  /** Not in the reference's OpenAPI document. */
  undocumented?: boolean;
}

/** Every route that reads, with a request that would succeed for an active member. */
const READ_ROUTES: ReadRoute[] = [
  { method: 'GET', route: '/attachments', path: () => '/attachments' },
  { method: 'GET', route: '/bot_storage', path: () => '/bot_storage', undocumented: true },
  { method: 'GET', route: '/bots', path: () => '/bots', undocumented: true },
  { method: 'GET', route: '/calls/bigbluebutton/create', path: () => '/calls/bigbluebutton/create', params: () => ({ meeting_name: 'standup' }) },
  { method: 'GET', route: '/drafts', path: () => '/drafts' },
  { method: 'GET', route: '/events', path: () => '/events', params: (m) => ({ queue_id: m.doraQueue, last_event_id: -1, dont_block: true }) },
  { method: 'GET', route: '/invites', path: () => '/invites' },
  { method: 'GET', route: '/get_stream_id', path: () => '/get_stream_id', params: () => ({ stream: 'general' }) },
  { method: 'GET', route: '/messages', path: () => '/messages', params: () => ({ anchor: 'newest', num_before: 10, num_after: 0 }) },
  { method: 'GET', route: '/messages/matches_narrow', path: () => '/messages/matches_narrow', params: (m) => ({ msg_ids: [m.message.general], narrow: [] }) },
  { method: 'GET', route: '/messages/:message_id', path: (m) => `/messages/${m.message.general}` },
  { method: 'GET', route: '/messages/:message_id/history', path: (m) => `/messages/${m.message.general}/history` },
  { method: 'GET', route: '/messages/:message_id/read_receipts', path: (m) => `/messages/${m.message.general}/read_receipts` },
  { method: 'POST', route: '/messages/render', path: () => '/messages/render', params: () => ({ content: '#**general**' }) },
  { method: 'GET', route: '/realm/emoji', path: () => '/realm/emoji' },
  { method: 'GET', route: '/realm/linkifiers', path: () => '/realm/linkifiers' },
  { method: 'GET', route: '/realm/domains', path: () => '/realm/domains', undocumented: true },
  { method: 'GET', route: '/realm/presence', path: () => '/realm/presence' },
  { method: 'GET', route: '/scheduled_messages', path: () => '/scheduled_messages' },
  { method: 'GET', route: '/realm/profile_fields', path: () => '/realm/profile_fields' },
  { method: 'POST', route: '/register', path: () => '/register' },
  { method: 'GET', route: '/streams', path: () => '/streams' },
  { method: 'GET', route: '/streams/:stream_id', path: (m) => `/streams/${m.stream.general}` },
  { method: 'GET', route: '/streams/:stream_id/email_address', path: (m) => `/streams/${m.stream.general}/email_address` },
  { method: 'GET', route: '/streams/:stream_id/members', path: (m) => `/streams/${m.stream.general}/members` },
  { method: 'GET', route: '/user_groups', path: () => '/user_groups' },
  { method: 'GET', route: '/user_uploads/:realm_id_str/*', path: (m) => `/user_uploads/${m.ctx.seed.realm.id}/ab/cdef/file.txt` },
  { method: 'GET', route: '/user_groups/:user_group_id/members', path: (m) => `/user_groups/${m.membersGroup}/members` },
  { method: 'GET', route: '/user_groups/:user_group_id/members/:user_id', path: (m) => `/user_groups/${m.membersGroup}/members/${m.user('mark').id}` },
  { method: 'GET', route: '/user_groups/:user_group_id/subgroups', path: (m) => `/user_groups/${m.membersGroup}/subgroups` },
  { method: 'GET', route: '/users', path: () => '/users' },
  { method: 'GET', route: '/users/me', path: () => '/users/me' },
  { method: 'GET', route: '/users/me/alert_words', path: () => '/users/me/alert_words' },
  { method: 'GET', route: '/users/me/subscriptions', path: () => '/users/me/subscriptions' },
  { method: 'GET', route: '/users/me/:stream_id/topics', path: (m) => `/users/me/${m.stream.general}/topics` },
  { method: 'GET', route: '/users/:email', path: (m) => `/users/${m.user('mark').email}` },
  { method: 'GET', route: '/users/:user_id(^\\d+$)', path: (m) => `/users/${m.user('mark').id}` },
  { method: 'GET', route: '/users/:user_id/status', path: (m) => `/users/${m.user('mark').id}/status` },
  { method: 'GET', route: '/users/:user_id_or_email/presence', path: (m) => `/users/${m.user('mark').id}/presence` },
  { method: 'GET', route: '/users/:user_id/subscriptions/:stream_id', path: (m) => `/users/${m.user('mark').id}/subscriptions/${m.stream.general}` },
];

/** GET routes open without credentials: nothing here to withhold per user. */
const PUBLIC_GETS = ['/accounts/confirm_new_email/:confirmation_key', '/dev_list_users', '/server_settings'];

const DEACTIVATED = refusal('Account is deactivated', 'UNAUTHORIZED', 401);
const ELSEWHERE = refusal('Account is not associated with this subdomain', 'UNAUTHORIZED', 401);

function expect401(res: ApiResponse, expected: typeof DEACTIVATED, context: string): void {
  expectRefusal(res, expected, context);
  assert.equal(res.headers['www-authenticate'], 'Basic realm="zulip"', context);
}

for (const dialect of testDialects()) {
  describe(`permission matrix: credentials on every read route [${dialect}]`, () => {
    let m: Matrix;
    before(async () => (m = await buildMatrix(dialect)));
    after(() => m.ctx.close());

    const callEach = async (client: HostClient, expected: typeof DEACTIVATED, who: string) => {
      for (const route of READ_ROUTES) {
        const res = await client.call(route.method, route.path(m), route.params?.(m) ?? {}, route.undocumented);
        expect401(res, expected, `${who}: ${route.method} ${route.route}`);
      }
    };

    it('lists every GET route of src/routes.ts', () => {
      const gets = routes.filter((r) => r.method === 'GET').map((r) => r.url);
      const covered = [...READ_ROUTES.filter((r) => r.method === 'GET').map((r) => r.route), ...PUBLIC_GETS];
      assert.deepEqual([...gets].sort(), [...covered].sort());
      for (const route of READ_ROUTES) assert.ok(routes.some((r) => r.method === route.method && r.url === route.route), route.route);
    });

    it('a deactivated user gets 401 everywhere, her old queue included', async () => {
      await callEach(m.doraClient, DEACTIVATED, 'dora');
    });

    it("another organization's user gets 401 on this organization's host", async () => {
      await callEach(m.owenHere, ELSEWHERE, 'owen');
    });

    it("this organization's users get 401 on another organization's host", async () => {
      for (const actor of ['olivia', 'gus', 'bot'] as const) await callEach(m.as(actor).at(OTHER_HOST), ELSEWHERE, actor);
    });

    it('the same credentials work on their own host', async () => {
      assert.equal((await m.owenHome.get('/users/me')).body.user_id, m.owen.id);
      assert.equal((await m.as('mark').at(DEV_HOST).get('/users/me')).body.user_id, m.user('mark').id);
    });
  });
}
