// POST /realm/emoji/{emoji_name} on every store and both storage backends: the stored image
// (fitted to 64x64, metadata gone, animation kept with a still), how it is served, and every
// refusal with the reference's error.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { FORM_COOKIE, withFormToken } from '../support/form-csrf.js';
import { animatedGif, filePart, HTML_AS_PNG, jpegWithExif, pixelBomb, pngImage, postMultipart, SVG_AS_PNG } from '../support/images.js';
import { multipartBody } from '../support/multipart.js';
import { openTestStorage, STORAGE_KINDS, type TestStorage } from '../support/storages.js';
import { cpuStopwatch } from '../support/cpu-time.js';

const BAD_IMAGE = 'Could not decode image; did you upload an image file?';

for (const dialect of testDialects()) {
  for (const kind of STORAGE_KINDS) {
    describe(`POST /realm/emoji/{emoji_name} [${dialect}, ${kind}]`, () => {
      let ctx: TestContext;
      let files: TestStorage;
      let png: Buffer;
      before(async () => {
        files = await openTestStorage(kind);
        ctx = await setup(dialect, { storage: files.storage });
        png = await pngImage(200, 100);
      });
      after(async () => {
        await ctx.close();
        await files.close();
      });

      const upload = (name: Parameters<typeof postMultipart>[1], emoji: string, parts = [filePart(png)]) =>
        postMultipart(ctx, name, `/realm/emoji/${encodeURIComponent(emoji)}`, parts);
      const listed = async () => expectSuccess(await ctx.as('mark').get('/realm/emoji')).emoji as Record<string, any>;
      const byName = async (name: string) => Object.values(await listed()).find((e) => e.name === name && !e.deactivated);
      const fetchImage = (url: string) => ctx.app.inject({ method: 'GET', url });

      it('stores a still image as a 64x64 PNG without metadata, listed and served with safe headers', async () => {
        expectSuccess(await upload('mark', 'party', [filePart(await jpegWithExif(), 'party.jpg', 'image/jpeg')]));
        const emoji = await byName('party');
        assert.deepEqual(emoji, {
          id: emoji.id,
          name: 'party',
          source_url: emoji.source_url,
          still_url: null,
          deactivated: false,
          author_id: ctx.seed.users.mark.id,
        });
        assert.match(emoji.source_url, new RegExp(`^/user_avatars/${ctx.seed.realm.id}/emoji/images/[0-9a-f]{16}\\.png$`));
        const res = await fetchImage(emoji.source_url);
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'image/png');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['content-security-policy'], "default-src 'none'; sandbox");
        assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
        const meta = await sharp(res.rawPayload).metadata();
        assert.deepEqual([meta.format, meta.width, meta.height, meta.exif], ['png', 64, 64, undefined]);
        assert.ok(!res.rawPayload.includes(Buffer.from('SecretCam')));
      });

      it('keeps an animated GIF animated, fitted to 64x64, with a still PNG of its first frame', async () => {
        expectSuccess(await upload('mark', 'spin', [filePart(await animatedGif(), 'spin.gif', 'image/gif')]));
        const emoji = await byName('spin');
        assert.match(emoji.source_url, /\/emoji\/images\/[0-9a-f]{16}\.gif$/);
        assert.equal(emoji.still_url, emoji.source_url.replace(/\/images\/([0-9a-f]{16})\.gif$/, '/images/still/$1.png'));
        const animated = await fetchImage(emoji.source_url);
        assert.equal(animated.headers['content-type'], 'image/gif');
        const meta = await sharp(animated.rawPayload, { animated: true }).metadata();
        assert.deepEqual([meta.format, meta.pages, meta.width, meta.pageHeight], ['gif', 2, 64, 64]);
        const still = await fetchImage(emoji.still_url);
        assert.equal(still.headers['content-type'], 'image/png');
        const stillMeta = await sharp(still.rawPayload).metadata();
        assert.deepEqual([stillMeta.format, stillMeta.pages ?? 1, stillMeta.width, stillMeta.height], ['png', 1, 64, 64]);
      });

      it('takes spaces as underscores and trims the name', async () => {
        expectSuccess(await upload('mark', ' big party ', [filePart(png)]));
        assert.ok(await byName('big_party'));
      });

      it('refuses bad names with the reference errors', async () => {
        expectError(await upload('mark', ' '), 'Emoji name is missing');
        const chars = 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.';
        for (const name of ['my_EMoji', 'my_em*oji', 'ka.boom', 'x\u0000y', 'émoji', '../up']) expectError(await upload('mark', name), chars);
        expectError(await upload('mark', 'my_emoji_'), 'Emoji names must end with either a letter or digit.');
        expectError(await upload('mark', 'a'.repeat(101)), 'Emoji name is too long (limit: 100 characters)');
      });

      it('refuses a name in use, until that emoji is deactivated', async () => {
        expectSuccess(await upload('mark', 'taken'));
        expectError(await upload('mona', 'taken'), 'A custom emoji with this name already exists.');
        expectSuccess(await ctx.as('mark').delete('/realm/emoji/taken'));
        expectSuccess(await upload('mona', 'taken'));
      });

      it('gives a name to one of two uploads racing for it', async () => {
        const results = await Promise.all(['mark', 'mona', 'adam'].map((who) => upload(who as 'mark', 'photo-finish')));
        assert.deepEqual(results.map((r) => r.body.result).sort(), ['error', 'error', 'success']);
        for (const r of results.filter((r) => r.body.result === 'error')) expectError(r, 'A custom emoji with this name already exists.');
        assert.equal(Object.values(await listed()).filter((e) => e.name === 'photo-finish').length, 1);
      });

      it('needs exactly one file', async () => {
        expectError(await upload('mark', 'none', []), 'You must upload exactly one file.');
        expectError(await upload('mark', 'two', [filePart(png, 'a.png'), filePart(png, 'b.png')]), 'You must upload exactly one file.');
      });

      it('lets only administrators override a built-in emoji', async () => {
        expectError(await upload('mark', 'smile'), 'Only administrators can override built-in emoji.');
        expectSuccess(await upload('adam', 'smile'));
      });

      it('refuses files over 5 MiB, empty files, liars and decompression bombs', async () => {
        const huge = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
        expectError(await upload('mark', 'x-huge', [filePart(huge)]), 'Uploaded file is larger than the allowed limit of 5 MiB');
        expectError(await upload('mark', 'x-empty', [filePart(Buffer.alloc(0))]), BAD_IMAGE, 'BAD_IMAGE');
        expectError(await upload('mark', 'x-html', [filePart(HTML_AS_PNG)]), BAD_IMAGE, 'BAD_IMAGE');
        expectError(await upload('mark', 'x-svg', [filePart(SVG_AS_PNG)]), BAD_IMAGE, 'BAD_IMAGE');
        expectError(await upload('mark', 'x-truncated', [filePart(png.subarray(0, 60))]), BAD_IMAGE, 'BAD_IMAGE');
        const cpuMs = cpuStopwatch();
        expectError(await upload('mark', 'x-bomb', [filePart(pixelBomb())]), 'Image size exceeds limit.', 'BAD_IMAGE');
        assert.ok(cpuMs() < 2000, 'a bomb is refused from its header, without decoding');
        for (const name of ['x-huge', 'x-empty', 'x-html', 'x-svg', 'x-truncated', 'x-bomb']) assert.equal(await byName(name), undefined);
        // Nothing is left spooled.
        assert.deepEqual(readdirSync(files.storage.spoolDir), []);
      });

      it('follows add_custom_emoji_policy; guests, anonymous and deactivated users are refused', async () => {
        expectError(await upload('gus', 'guest'), 'Not allowed for guest users');
        await setRealmSettings(ctx, { add_custom_emoji_policy: 2 });
        try {
          expectError(await upload('mark', 'admins-only'), 'Insufficient permission');
          expectSuccess(await upload('adam', 'admins-only'));
          await setRealmSettings(ctx, { add_custom_emoji_policy: 4 });
          expectError(await upload('mark', 'mods'), 'Insufficient permission');
          expectSuccess(await upload('maya', 'mods'));
        } finally {
          await setRealmSettings(ctx, { add_custom_emoji_policy: 1 });
        }
        const anonymous = await postMultipart(ctx, null, '/realm/emoji/anon', [filePart(png)]);
        expectError(anonymous, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED', 401);
        const { milo } = ctx.seed.users;
        await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', milo.id).execute();
        try {
          expectError(await upload('milo', 'gone'), 'Account is deactivated', 'UNAUTHORIZED', 401);
        } finally {
          await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', milo.id).execute();
        }
      });

      it('takes uploads from the web client through /json, with its session and CSRF header', async () => {
        const login = await ctx.app.inject({
          method: 'POST',
          url: '/accounts/login/',
          headers: { host: 'confab.test', cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(withFormToken({ username: 'mona@confab.test', password: DEV_PASSWORD })).toString(),
        });
        const raw = login.headers['set-cookie'];
        const cookies = new Map((Array.isArray(raw) ? raw : [String(raw)]).map((c) => c.split(';')[0]!.split('=') as [string, string]));
        const { payload, contentType } = multipartBody([filePart(png)]);
        const post = (csrf: string | null) =>
          ctx.app.inject({
            method: 'POST',
            url: '/json/realm/emoji/from-browser',
            payload,
            headers: {
              host: 'confab.test',
              cookie: `confab_session=${cookies.get('confab_session')}; csrftoken=${cookies.get('csrftoken')}`,
              'content-type': contentType,
              ...(csrf ? { 'x-csrftoken': csrf } : {}),
            },
          });
        const refused = await post(null);
        assert.deepEqual([refused.statusCode, refused.json().code], [403, 'CSRF_FAILED']);
        assert.equal(await byName('from-browser'), undefined);
        const res = await post(cookies.get('csrftoken')!);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal((await byName('from-browser')).author_id, ctx.seed.users.mona.id);
      });

      it('serves only real emoji files: unknown names, other paths and other organizations answer 404', async () => {
        const emoji = await byName('party');
        for (const url of [
          `/user_avatars/${ctx.seed.realm.id}/emoji/images/0000000000000000.png`,
          `/user_avatars/${ctx.seed.realm.id}/emoji/images/still/${emoji.source_url.split('/').pop()!.replace('.png', '.gif')}`,
          `/user_avatars/${ctx.seed.realm.id}/emoji/images/..%2F..%2Fconfab.db`,
          `/user_avatars/${ctx.seed.realm.id}/emoji/images/party.html`,
          emoji.source_url.replace(`/user_avatars/${ctx.seed.realm.id}/`, `/user_avatars/${ctx.seed.realm.id + 1}/`),
        ]) {
          const res = await fetchImage(url);
          assert.equal(res.statusCode, 404, url);
          assert.equal(JSON.parse(res.body).result, 'error');
        }
      });
    });
  }
}
