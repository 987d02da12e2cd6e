// Permission matrix, avatars: who may set and delete their avatar (with and without the
// organization's avatar_changes_disabled), and who may fetch avatars (uploaded and default) and
// their /avatar/ redirects: every role, the deactivated user, another organization's user, and
// spectators (the matrix organization allows web-public access; then it does not).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UserRow } from '../../src/db/schema.js';
import { authOf, gif, imagePart, postAvatar } from '../support/avatar-images.js';
import type { ApiResponse } from '../support/client.js';
import { OTHER_HOST, setRealmSettings } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { type Actor, ACTORS, buildMatrix, DEV_HOST, expectRefusal, type Matrix, parseRow, refusal } from './matrix-fixture.js';

const DISABLED = refusal('Avatar changes are disabled in this organization.');
const DEACTIVATED = refusal('Account is deactivated', 'UNAUTHORIZED', 401);
const ELSEWHERE = refusal('Account is not associated with this subdomain', 'UNAUTHORIZED', 401);
const NOT_FOUND = refusal('File not found', 'BAD_REQUEST', 404);
const NOT_LOGGED_IN = refusal('Not logged in: API authentication or user session required', 'UNAUTHORIZED', 401);

// Y: allowed; E: DISABLED.
const CHANGES: Record<'open' | 'disabled', string> = {
  //         olivia adam maya mark mona milo gus bot
  open:     ' Y      Y    Y    Y    Y    Y    Y   Y ',
  disabled: ' Y      Y    E    E    E    E    E   E ',
};

/** A raw request (avatars live outside /api/v1), answered as an ApiResponse when it is JSON. */
async function raw(m: Matrix, method: 'GET' | 'DELETE', url: string, user: UserRow | null, host = DEV_HOST): Promise<ApiResponse> {
  const res = await m.ctx.app.inject({ method, url, headers: { host, ...(user ? { authorization: authOf(user) } : {}) } });
  const isJson = String(res.headers['content-type']).startsWith('application/json');
  return { status: res.statusCode, body: isJson ? JSON.parse(res.body) : {}, headers: res.headers };
}

for (const dialect of testDialects()) {
  describe(`permission matrix: avatars [${dialect}]`, () => {
    let m: Matrix;
    let uploadedUrl: string;
    before(async () => {
      m = await buildMatrix(dialect);
      uploadedUrl = (await postAvatar(m.ctx.app, m.user('mark'), [imagePart(await gif(), 'a.gif', 'image/gif')], DEV_HOST)).body.avatar_url;
    });
    after(() => m.ctx.close());

    const avatarPaths = () => {
      const realm = m.ctx.seed.realm.id;
      const bot = m.user('bot').id;
      return [uploadedUrl, uploadedUrl.replace('.png', '-medium.png'), `/user_avatars/${realm}/${bot}.png`, `/user_avatars/${realm}/${m.dora.id}-medium.png`];
    };

    async function change(actor: Actor, method: 'POST' | 'DELETE'): Promise<ApiResponse> {
      if (method === 'POST') return postAvatar(m.ctx.app, m.user(actor), [imagePart(await gif(), 'a.gif', 'image/gif')], DEV_HOST);
      return raw(m, 'DELETE', '/api/v1/users/me/avatar', m.user(actor));
    }

    it('lets every role set and delete its avatar; with avatar_changes_disabled only owners and administrators', async () => {
      for (const key of ['open', 'disabled'] as const) {
        await setRealmSettings(m.ctx, { avatar_changes_disabled: key === 'disabled' });
        const row = parseRow(CHANGES[key]);
        for (const actor of ACTORS) {
          for (const method of ['POST', 'DELETE'] as const) {
            const res = await change(actor, method);
            const context = `${key}: ${method} as ${actor}`;
            if (row[actor] === 'Y') assert.equal(res.status, 200, `${context}: ${JSON.stringify(res.body)}`);
            else expectRefusal(res, DISABLED, context);
          }
        }
      }
      await setRealmSettings(m.ctx, { avatar_changes_disabled: false });
      // Mark's avatar is uploaded again for the reads below.
      uploadedUrl = (await change('mark', 'POST')).body.avatar_url;
    });

    it('refuses changes by the deactivated user and by another organization\'s user', async () => {
      expectRefusal(await postAvatar(m.ctx.app, m.dora, [imagePart(await gif())], DEV_HOST), DEACTIVATED, 'POST as dora');
      expectRefusal(await raw(m, 'DELETE', '/api/v1/users/me/avatar', m.dora), DEACTIVATED, 'DELETE as dora');
      expectRefusal(await postAvatar(m.ctx.app, m.owen, [imagePart(await gif())], DEV_HOST), ELSEWHERE, 'POST as owen here');
    });

    it('serves every avatar of the organization to each of its roles, and redirects /avatar/ for them', async () => {
      for (const actor of ACTORS) {
        for (const path of avatarPaths()) {
          const res = await raw(m, 'GET', path, m.user(actor));
          assert.deepEqual([res.status, res.headers['content-type']], [200, 'image/png'], `${path} as ${actor}`);
        }
        const redirect = await raw(m, 'GET', `/avatar/${m.user('mark').id}`, m.user(actor));
        assert.deepEqual([redirect.status, redirect.headers.location], [302, uploadedUrl], `/avatar/ as ${actor}`);
      }
    });

    it('refuses the deactivated user, and another organization\'s user here; there, it finds none of them', async () => {
      for (const path of avatarPaths()) {
        expectRefusal(await raw(m, 'GET', path, m.dora), DEACTIVATED, `${path} as dora`);
        expectRefusal(await raw(m, 'GET', path, m.owen), ELSEWHERE, `${path} as owen here`);
        expectRefusal(await raw(m, 'GET', path, m.owen, OTHER_HOST), NOT_FOUND, `${path} as owen at home`);
      }
      expectRefusal(await raw(m, 'GET', `/avatar/${m.user('mark').id}`, m.dora), DEACTIVATED, '/avatar/ as dora');
    });

    it('serves spectators while the organization allows web-public access, and only then', async () => {
      for (const path of avatarPaths()) assert.equal((await raw(m, 'GET', path, null)).status, 200, `${path} as spectator`);
      assert.equal((await raw(m, 'GET', `/avatar/${m.user('mark').id}`, null)).status, 302);
      expectRefusal(await raw(m, 'GET', `/avatar/${m.user('mark').delivery_email}`, null), NOT_LOGGED_IN, '/avatar/{email} as spectator');
      await setRealmSettings(m.ctx, { enable_spectator_access: false });
      try {
        for (const path of avatarPaths()) expectRefusal(await raw(m, 'GET', path, null), NOT_LOGGED_IN, `${path} as spectator, no access`);
        expectRefusal(await raw(m, 'GET', `/avatar/${m.user('mark').id}`, null), NOT_LOGGED_IN, '/avatar/ as spectator, no access');
      } finally {
        await setRealmSettings(m.ctx, { enable_spectator_access: true });
      }
    });
  });
}
