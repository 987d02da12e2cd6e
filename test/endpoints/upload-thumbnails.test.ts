// Image previews end to end, on every store and both storage backends: an uploaded image linked
// in a message renders the reference's inline image markup; its thumbnail is made after the upload
// (or on the first request), served with safe headers to exactly those who may read the original;
// bombs, liars and broken images never get one; spectators read what web-public streams link.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { thumbnailsIdle } from '../../src/actions/thumbnails.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { ApiClient, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext, TEST_URL } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';
import { openTestStorage, STORAGE_KINDS, type TestStorage } from '../support/storages.js';
import { animatedGif, decompressionBomb, jpegWithExif, pngImage } from '../support/upload-images.js';
import { cpuStopwatch } from '../support/cpu-time.js';

const HOST = new URL(TEST_URL).host;

async function metadataOf(data: Buffer) {
  const sharp = (await import('sharp')).default;
  return sharp(data).metadata();
}

for (const dialect of testDialects()) {
  for (const kind of STORAGE_KINDS) {
    describe(`image previews and thumbnails [${dialect}, ${kind}]`, () => {
      let ctx: TestContext;
      let files: TestStorage;
      before(async () => {
        files = await openTestStorage(kind);
        ctx = await setup(dialect, { storage: files.storage, config: { webPublicStreamsEnabled: true } });
      });
      after(async () => {
        await thumbnailsIdle(ctx.services);
        await ctx.close();
        await files.close();
      });

      const auth = (name: DevUserName) => ApiClient.basic(ctx.seed.users[name].delivery_email, ctx.seed.users[name].api_key);
      async function upload(name: DevUserName, filename: string, value: Buffer | string, contentType: string): Promise<string> {
        const { payload, contentType: type } = multipartBody([{ name: 'file', filename, value, contentType }]);
        const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/user_uploads', headers: { 'content-type': type, authorization: auth(name) }, payload });
        assert.equal(res.statusCode, 200, res.body);
        return JSON.parse(res.body).uri as string;
      }
      const fetchFile = (name: DevUserName | null, uri: string, headers: Record<string, string> = {}) =>
        ctx.app.inject({ method: 'GET', url: uri, headers: { host: HOST, ...headers, ...(name ? { authorization: auth(name) } : {}) } });
      const send = async (name: DevUserName, to: string, content: string) =>
        expectSuccess(await ctx.as(name).post('/messages', { type: 'stream', to, topic: 'pictures', content })).id as number;
      const rendered = async (id: number) => expectSuccess(await ctx.as('olivia').get(`/messages/${id}`)).message.content as string;
      const thumbOf = (uri: string, format = '840x560.webp') => `${uri.replace('/user_uploads/', '/user_uploads/thumbnail/')}/${format}`;
      const stored = (key: string) => files.storage.stat(key);

      it('renders the inline image markup with the thumbnail, made in the background after the upload', async () => {
        const uri = await upload('mark', 'sunset.png', await pngImage(1680, 1120), 'image/png');
        await thumbnailsIdle(ctx.services);
        const key = `thumbnail/${uri.slice('/user_uploads/'.length)}/840x560.webp`;
        assert.notEqual(await stored(key), null);
        const id = await send('mark', 'general', `Look: [sunset.png](${uri})`);
        assert.equal(
          await rendered(id),
          `<p>Look: <a href="${uri}">sunset.png</a></p>\n<div class="message_inline_image"><a href="${uri}" title="sunset.png"><img src="${thumbOf(uri)}"></a></div>`,
        );
        const res = await fetchFile('mona', thumbOf(uri));
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'image/webp');
        assert.equal(res.headers['content-disposition'], 'inline; filename="sunset.webp"');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.match(String(res.headers['content-security-policy']), /default-src 'none'.*sandbox/);
        assert.equal(res.headers['cache-control'], 'private, max-age=86400, immutable');
        const meta = await metadataOf(res.rawPayload);
        assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 840, 560]);
        assert.equal((await fetchFile('mona', thumbOf(uri), { 'if-none-match': String(res.headers.etag) })).statusCode, 304);
        // The original stays as it was.
        const original = await fetchFile('mona', uri);
        assert.equal(original.headers['content-type'], 'image/png');
        assert.deepEqual([(await metadataOf(original.rawPayload)).width], [1680]);
      });

      it('serves a thumbnail exactly to those who may read the original', async () => {
        const uri = await upload('mark', 'private.png', await pngImage(100, 80), 'image/png');
        const thumb = thumbOf(uri);
        assert.equal((await fetchFile('mark', thumb)).statusCode, 200);
        assert.equal((await fetchFile('mona', thumb)).statusCode, 403);
        assert.equal((await fetchFile(null, thumb)).statusCode, 401);
        const id = await send('mark', 'general', `[p](${uri})`);
        assert.equal((await fetchFile('mona', thumb)).statusCode, 200);
        assert.equal((await fetchFile('gus', thumb)).statusCode, 403);
        expectSuccess(await ctx.as('olivia').patch(`/messages/${id}`, { stream_id: ctx.seed.streams.leadership.id }));
        for (const [name, status] of [['mona', 403], ['adam', 200], ['mark', 200]] as const) {
          assert.equal((await fetchFile(name, thumb)).statusCode, status, name);
          assert.equal((await fetchFile(name, uri)).statusCode, status, name);
        }
        const { milo } = ctx.seed.users;
        await ctx.services.db.updateTable('user_profile').set({ is_active: 0 as never }).where('id', '=', milo.id).execute();
        try {
          assert.equal((await fetchFile('milo', thumb)).statusCode, 401);
        } finally {
          await ctx.services.db.updateTable('user_profile').set({ is_active: 1 as never }).where('id', '=', milo.id).execute();
        }
        // Unknown formats, paths and other organizations' ids find nothing.
        assert.equal((await fetchFile('mark', thumbOf(uri, '9999x9999.png'))).statusCode, 404);
        assert.equal((await fetchFile('mark', thumbOf(uri, '840x560-anim.webp'))).statusCode, 404);
        assert.equal((await fetchFile('mark', thumbOf(`${uri}x`))).statusCode, 404);
        assert.equal((await fetchFile('mark', thumbOf(uri).replace(/thumbnail\/\d+/, 'thumbnail/999'))).statusCode, 404);
        assert.equal((await fetchFile('mark', '/user_uploads/thumbnail/x')).statusCode, 404);
      });

      it('makes a missing thumbnail on the first request, once for concurrent requests', async () => {
        const uri = await upload('mark', 'lost.jpg', await jpegWithExif(1200, 600), 'image/jpeg');
        await thumbnailsIdle(ctx.services);
        const key = `thumbnail/${uri.slice('/user_uploads/'.length)}/840x560.webp`;
        await files.storage.delete(key);
        const [one, two] = await Promise.all([fetchFile('mark', thumbOf(uri)), fetchFile('mark', thumbOf(uri))]);
        assert.equal(one.statusCode, 200);
        assert.deepEqual(one.rawPayload, two.rawPayload);
        // Upright (the EXIF said to turn it) and without the EXIF.
        const meta = await metadataOf(one.rawPayload);
        assert.deepEqual([meta.width, meta.height, meta.exif, meta.orientation], [280, 560, undefined, undefined]);
        assert.ok(!one.rawPayload.includes('Secret Photographer'));
        assert.notEqual(await stored(key), null);
      });

      it('keeps animated images animated', async () => {
        const uri = await upload('mark', 'dance.gif', await animatedGif(300, 200, 3), 'image/gif');
        const id = await send('mark', 'general', `[dance.gif](${uri})`);
        assert.match(await rendered(id), new RegExp(`<img src="${thumbOf(uri, '840x560-anim.webp').replace(/[.?]/g, '\\$&')}">`));
        const moving = await metadataOf((await fetchFile('mark', thumbOf(uri, '840x560-anim.webp'))).rawPayload);
        assert.deepEqual([moving.format, moving.pages, moving.width, moving.height], ['webp', 3, 300, 200]);
        const still = await metadataOf((await fetchFile('mark', thumbOf(uri))).rawPayload);
        assert.equal(still.pages ?? 1, 1);
      });

      it('gives bombs, liars and non-images no preview: the message links the original', async () => {
        const cpuMs = cpuStopwatch();
        const bomb = await upload('mark', 'bomb.png', decompressionBomb(), 'image/png');
        const liar = await upload('mark', 'evil.png', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/png');
        const text = await upload('mark', 'notes.txt', 'hello', 'text/plain');
        const empty = await upload('mark', 'empty.png', '', 'image/png');
        const id = await send('mark', 'general', `[bomb.png](${bomb}) [evil.png](${liar}) [notes.txt](${text}) [empty.png](${empty})`);
        await thumbnailsIdle(ctx.services);
        assert.ok(cpuMs() < 10_000);
        assert.equal(
          await rendered(id),
          `<p><a href="${bomb}">bomb.png</a> <a href="${liar}">evil.png</a> <a href="${text}">notes.txt</a> <a href="${empty}">empty.png</a></p>`,
        );
        for (const uri of [bomb, liar, text, empty]) assert.equal((await fetchFile('mark', thumbOf(uri))).statusCode, 404, uri);
        const nothing = await fetchFile('mark', empty);
        assert.deepEqual([nothing.statusCode, nothing.headers['content-type'], nothing.headers['content-disposition'], nothing.body], [200, 'application/octet-stream', 'attachment; filename="empty.png"', '']);
        assert.equal((await fetchFile('mark', bomb)).statusCode, 200);
        const svg = await fetchFile('mark', liar);
        assert.equal(svg.headers['content-type'], 'application/octet-stream');
        assert.equal(svg.headers['content-disposition'], 'attachment; filename="evil.png"');
      });

      it('shows the original when an image cannot be thumbnailed', async () => {
        // A valid header over broken pixel data: it probes as an image, but never decodes.
        const broken = Buffer.from(await pngImage(64, 64));
        const data = broken.indexOf('IDAT') + 4;
        broken.fill(0x5a, data + 2, data + 12);
        const uri = await upload('mark', 'broken.png', broken, 'image/png');
        await thumbnailsIdle(ctx.services);
        const res = await fetchFile('mark', thumbOf(uri));
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'image/png');
        assert.deepEqual(res.rawPayload, broken);
      });

      it('follows the organization setting for previews', async () => {
        const uri = await upload('mark', 'off.png', await pngImage(10, 10), 'image/png');
        await setRealmSettings(ctx, { inline_image_preview: false });
        try {
          assert.equal(await rendered(await send('mark', 'general', `[off.png](${uri})`)), `<p><a href="${uri}">off.png</a></p>`);
        } finally {
          await setRealmSettings(ctx, { inline_image_preview: true });
        }
      });

      it('removes thumbnails with their upload', async () => {
        const uri = await upload('maya', 'gone.png', await pngImage(20, 20), 'image/png');
        await thumbnailsIdle(ctx.services);
        const key = `thumbnail/${uri.slice('/user_uploads/'.length)}/840x560.webp`;
        assert.notEqual(await stored(key), null);
        const mine = (expectSuccess(await ctx.as('maya').get('/attachments')).attachments as Array<{ id: number; path_id: string }>).find((a) => uri.endsWith(a.path_id))!;
        expectSuccess(await ctx.as('maya').delete(`/attachments/${mine.id}`));
        for (let i = 0; i < 50 && (await stored(key)) !== null; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(await stored(key), null);
        assert.equal((await fetchFile('maya', thumbOf(uri))).statusCode, 404);
        // Deleted while its thumbnail is still being made: nothing is left either way.
        const quick = await upload('maya', 'quick.png', await pngImage(900, 900), 'image/png');
        const quickId = (expectSuccess(await ctx.as('maya').get('/attachments')).attachments as Array<{ id: number; path_id: string }>).find((a) => quick.endsWith(a.path_id))!.id;
        expectSuccess(await ctx.as('maya').delete(`/attachments/${quickId}`));
        await thumbnailsIdle(ctx.services);
        const quickKey = `thumbnail/${quick.slice('/user_uploads/'.length)}/840x560.webp`;
        for (let i = 0; i < 50 && (await stored(quickKey)) !== null; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(await stored(quickKey), null);
      });

      it('lets spectators read what web-public streams link, when the organization allows them', async () => {
        await setRealmSettings(ctx, { enable_spectator_access: true });
        try {
          expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'on-the-web' }], is_web_public: true }));
          const open = await upload('olivia', 'public.png', await pngImage(30, 30), 'image/png');
          const closed = await upload('olivia', 'internal.png', await pngImage(30, 30), 'image/png');
          await send('olivia', 'on-the-web', `[public.png](${open})`);
          await send('olivia', 'general', `[internal.png](${closed})`);
          for (const uri of [open, thumbOf(open)]) {
            const res = await fetchFile(null, uri);
            assert.equal(res.statusCode, 200, uri);
            assert.equal(res.headers['x-content-type-options'], 'nosniff');
          }
          for (const uri of [closed, thumbOf(closed)]) {
            const res = await fetchFile(null, uri);
            assert.equal(res.statusCode, 403, uri);
            assert.equal(JSON.parse(res.body).msg, 'You are not authorized to view this file.');
          }
          assert.equal((await fetchFile(null, `${open}x`)).statusCode, 404);
          // Credentials, even bad ones, take the usual path.
          assert.equal((await fetchFile(null, open, { authorization: 'Basic bm9ib2R5Om5vdGhpbmc=' })).statusCode, 401);
          // The server and the organization must both let spectators in; otherwise, log in first.
          ctx.services.config.webPublicStreamsEnabled = false;
          assert.equal((await fetchFile(null, open)).statusCode, 401);
          ctx.services.config.webPublicStreamsEnabled = true;
          await setRealmSettings(ctx, { enable_spectator_access: false });
          assert.equal((await fetchFile(null, open)).statusCode, 401);
          assert.equal((await fetchFile(null, thumbOf(open))).statusCode, 401);
        } finally {
          ctx.services.config.webPublicStreamsEnabled = true;
          await setRealmSettings(ctx, { enable_spectator_access: false });
        }
      });
    });
  }
}
