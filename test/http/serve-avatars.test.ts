// Serving avatars: /user_avatars/{realm_id}/{user_id}.png (and -medium), uploaded or Confab's
// default, with safe headers; who may fetch them (API credentials, a session, spectators where the
// organization allows them); and the /avatar/{email_or_id} redirects. Also with --enable-gravatar.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { avatarKey } from '../../src/actions/avatar-files.js';
import { DEV_PASSWORD, type DevUserName } from '../../src/dev-seed.js';
import { gravatarUrl, setGravatarEnabled } from '../../src/lib/user-format.js';
import { authOf, gif, imagePart, postAvatar } from '../support/avatar-images.js';
import { expectSuccess } from '../support/client.js';
import { createOtherRealm, OTHER_HOST, setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { FORM_COOKIE, withFormToken } from '../support/form-csrf.js';

const HOST = 'confab.test';

for (const dialect of testDialects()) {
  describe(`serving avatars [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const realmId = () => ctx.seed.realm.id;
    const pathOf = (name: DevUserName, medium = false) => `/user_avatars/${realmId()}/${ctx.seed.users[name].id}${medium ? '-medium' : ''}.png`;
    const get = (url: string, as: DevUserName | null, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url, headers: { host: HOST, ...(as ? { authorization: authOf(ctx.seed.users[as]) } : {}), ...headers } });
    const errorOf = (res: { statusCode: number; body: string }) => {
      const body = JSON.parse(res.body);
      return { status: res.statusCode, result: body.result, msg: body.msg, code: body.code };
    };
    const sizeOf = async (body: Buffer) => {
      const meta = await sharp(body).metadata();
      return [meta.format, meta.width, meta.height];
    };

    it('serves a generated default PNG for users without an upload, in both sizes, with safe headers', async () => {
      const res = await get(`${pathOf('mona')}?version=1`, 'mark');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(await sizeOf(res.rawPayload), ['png', 100, 100]);
      assert.equal(res.headers['content-type'], 'image/png');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['content-security-policy'], "default-src 'none'; sandbox");
      assert.equal(res.headers['cache-control'], 'private, max-age=3600');
      assert.equal(Number(res.headers['content-length']), res.rawPayload.length);
      assert.deepEqual(await sizeOf((await get(pathOf('mona', true), 'mark')).rawPayload), ['png', 500, 500]);
      const again = await get(pathOf('mona'), 'mark', { 'if-none-match': String(res.headers.etag) });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
    });

    it("draws the name's initial: a rename changes the default image (and its ETag) at the same URL", async () => {
      const { mona } = ctx.seed.users;
      const before = await get(pathOf('mona'), 'mark');
      await ctx.services.db.updateTable('user_profile').set({ full_name: 'Zelda Member' }).where('id', '=', mona.id).execute();
      try {
        const renamed = await get(pathOf('mona'), 'mark');
        assert.notEqual(renamed.headers.etag, before.headers.etag);
        assert.notDeepEqual(renamed.rawPayload, before.rawPayload);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ full_name: mona.full_name }).where('id', '=', mona.id).execute();
      }
    });

    it('serves an uploaded avatar with long private caching, and the default if its image is missing', async () => {
      const body = expectSuccess(await postAvatar(ctx.app, ctx.seed.users.milo, [imagePart(await gif(), 'a.gif', 'image/gif')]));
      const res = await get(body.avatar_url, 'gus');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'image/png');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['cache-control'], 'private, max-age=31536000, immutable');
      assert.deepEqual(await sizeOf(res.rawPayload), ['png', 100, 100]);
      assert.deepEqual(await sizeOf((await get(pathOf('milo', true), 'gus')).rawPayload), ['png', 500, 500]);
      assert.equal((await get(body.avatar_url, 'gus', { 'if-none-match': String(res.headers.etag) })).statusCode, 304);
      // Lost in a race with a delete: the default stands in rather than an error.
      await ctx.services.storage!.delete(avatarKey(realmId(), ctx.seed.users.milo.id));
      // A copy the client holds is confirmed without storage being read.
      assert.equal((await get(body.avatar_url, 'gus', { 'if-none-match': String(res.headers.etag) })).statusCode, 304);
      const fallback = await get(body.avatar_url, 'gus');
      assert.equal(fallback.statusCode, 200);
      assert.equal(fallback.headers['cache-control'], 'private, max-age=3600');
    });

    it('answers 404 for other paths, unknown users and other organizations, and leaves emoji paths alone', async () => {
      const notFound = { status: 404, result: 'error', msg: 'File not found', code: 'BAD_REQUEST' };
      for (const file of ['abc.png', `${ctx.seed.users.mona.id}.svg`, `${ctx.seed.users.mona.id}-large.png`, '99999.png', `..%2F${ctx.seed.users.mona.id}.png`]) {
        assert.deepEqual(errorOf(await get(`/user_avatars/${realmId()}/${file}`, 'mark')), notFound, file);
      }
      assert.deepEqual(errorOf(await get(`/user_avatars/${realmId() + 1}/${ctx.seed.users.mona.id}.png`, 'mark')), notFound);
      assert.deepEqual(errorOf(await get(`/user_avatars/x/${ctx.seed.users.mona.id}.png`, 'mark')), notFound);
      // Two segments only: /user_avatars/{realm_id}/emoji/... is the custom emoji route's.
      assert.equal((await get(`/user_avatars/${realmId()}/emoji/images/1.png`, 'mark')).statusCode, 404);
      const { owner } = await createOtherRealm(ctx, { email: 'owen@other.test', fullName: 'Owen Other' });
      const owen = (url: string, host: string) => ctx.app.inject({ method: 'GET', url, headers: { host, authorization: authOf(owner) } });
      assert.deepEqual(errorOf(await owen(pathOf('mona'), OTHER_HOST)), notFound);
      assert.deepEqual(errorOf(await owen(pathOf('mona'), HOST)), {
        status: 401,
        result: 'error',
        msg: 'Account is not associated with this subdomain',
        code: 'UNAUTHORIZED',
      });
      assert.equal((await owen(`/user_avatars/${owner.realm_id}/${owner.id}.png`, OTHER_HOST)).statusCode, 200);
    });

    it('needs credentials or a session; a deactivated user is refused, a deactivated user\'s avatar still served', async () => {
      const unauthorized = { status: 401, result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' };
      assert.deepEqual(errorOf(await get(pathOf('mona'), null)), unauthorized);
      const { milo } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 as never }).where('id', '=', milo.id).execute();
      try {
        assert.deepEqual(errorOf(await get(pathOf('mona'), 'milo')), { status: 401, result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' });
        assert.equal((await get(pathOf('milo'), 'mona')).statusCode, 200);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 as never }).where('id', '=', milo.id).execute();
      }
      const login = await ctx.app.inject({
        method: 'POST',
        url: '/accounts/login/',
        headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(withFormToken({ username: 'mona@confab.test', password: DEV_PASSWORD })).toString(),
      });
      const cookies = ([] as string[]).concat(login.headers['set-cookie'] as string | string[]).map((c) => c.split(';')[0]).join('; ');
      assert.equal((await get(pathOf('mark'), null, { cookie: cookies })).statusCode, 200);
    });

    it('lets spectators fetch avatars only where the server and the organization allow web-public access', async () => {
      const spectator = () => get(pathOf('mark'), null);
      assert.equal((await spectator()).statusCode, 401);
      await setRealmSettings(ctx, { enable_spectator_access: true });
      try {
        assert.equal((await spectator()).statusCode, 401, 'the server must allow web-public streams too');
        ctx.services.config.webPublicStreamsEnabled = true;
        const res = await spectator();
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'image/png');
        // By id only, as in the reference.
        assert.equal((await get(`/avatar/${ctx.seed.users.mark.id}`, null)).statusCode, 302);
        assert.equal((await get('/avatar/mark@confab.test', null)).statusCode, 401);
      } finally {
        ctx.services.config.webPublicStreamsEnabled = false;
        await setRealmSettings(ctx, { enable_spectator_access: false });
      }
    });

    it('redirects /avatar/{email_or_id} and /medium to the avatar URL, keeping the query', async () => {
      const { mark, olivia } = ctx.seed.users;
      const byId = await get(`/avatar/${mark.id}`, 'mona');
      assert.equal(byId.statusCode, 302);
      assert.equal(byId.headers.location, `${pathOf('mark')}?version=1`);
      const byEmail = await get('/avatar/MARK@confab.test/medium?s=50', 'mona');
      assert.equal(byEmail.headers.location, `${pathOf('mark', true)}?version=1&s=50`);
      assert.equal((await get(`/avatar/${olivia.id}/medium`, 'gus')).headers.location, `${pathOf('olivia', true)}?version=1`);
      const noSuchUser = { status: 404, result: 'error', msg: 'No such user', code: 'BAD_REQUEST' };
      assert.deepEqual(errorOf(await get('/avatar/99999', 'mona')), noSuchUser);
      assert.deepEqual(errorOf(await get('/avatar/nobody@example.org', 'mona')), noSuchUser);
      assert.equal((await get(`/avatar/${mark.id}`, null)).statusCode, 401);
    });
  });

  describe(`avatars with --enable-gravatar [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect, { config: { enableGravatar: true } })));
    after(async () => {
      await ctx.close();
      setGravatarEnabled(false);
    });

    it('points users without an upload at Gravatar, and uploads at Confab', async () => {
      const { mona, mark } = ctx.seed.users;
      const users = expectSuccess(await ctx.as('mark').get('/users', { client_gravatar: false })).members as Array<Record<string, unknown>>;
      assert.equal(users.find((u) => u.user_id === mona.id)!.avatar_url, gravatarUrl('mona@confab.test', 1));
      // A client that computes gravatars itself gets null for public addresses.
      const own = expectSuccess(await ctx.as('mark').get('/users', { client_gravatar: true })).members as Array<Record<string, unknown>>;
      assert.equal(own.find((u) => u.user_id === mona.id)!.avatar_url, null);
      const body = expectSuccess(await postAvatar(ctx.app, mark, [imagePart(await gif(), 'a.gif', 'image/gif')]));
      assert.equal(body.avatar_url, `/user_avatars/${ctx.seed.realm.id}/${mark.id}.png?version=2`);
      const deleted = expectSuccess(await ctx.as('mark').delete('/users/me/avatar', {}, { undocumented: true }));
      assert.equal(deleted.avatar_url, gravatarUrl('mark@confab.test', 3));
    });

    it('redirects an unknown address to the Gravatar it would have', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/avatar/stranger@example.org/medium', headers: { host: HOST, authorization: authOf(ctx.seed.users.mark) } });
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, `${gravatarUrl('stranger@example.org', 1)}&s=500`);
    });
  });
}
