// Uploads end to end on every store and both storage backends: POST /user_uploads, serving,
// temporary URLs, attachments linked by messages, GET/DELETE /attachments, bad input.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sweepUnclaimedUploads } from '../../src/actions/upload-sweep.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { type ApiResponse, ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { multipartBody, type MultipartPart } from '../support/multipart.js';
import { checkEvent, checkResponse } from '../support/openapi-check.js';
import { openTestStorage, STORAGE_KINDS, type TestStorage } from '../support/storages.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

for (const dialect of testDialects()) {
  for (const kind of STORAGE_KINDS) {
    describe(`uploads [${dialect}, ${kind}]`, () => {
      let ctx: TestContext;
      let files: TestStorage;
      before(async () => {
        files = await openTestStorage(kind);
        ctx = await setup(dialect, { storage: files.storage, config: { maxFileUploadSizeMib: 1 } });
      });
      after(async () => {
        await ctx.close();
        await files.close();
      });

      const auth = (name: DevUserName) => ApiClient.basic(ctx.seed.users[name].delivery_email, ctx.seed.users[name].api_key);

      async function upload(name: DevUserName | null, parts: MultipartPart[]): Promise<ApiResponse> {
        const { payload, contentType } = multipartBody(parts);
        const headers: Record<string, string> = { 'content-type': contentType };
        if (name) headers.authorization = auth(name);
        const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/user_uploads', headers, payload });
        const response = { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
        checkResponse('POST', '/user_uploads', response);
        return response;
      }
      const uploadOne = async (name: DevUserName, filename: string, value: string | Buffer, contentType?: string) =>
        expectSuccess(await upload(name, [{ name: 'file', filename, value, ...(contentType ? { contentType } : {}) }])).uri as string;
      const fetchFile = (name: DevUserName | null, uri: string, headers: Record<string, string> = {}) =>
        ctx.app.inject({ method: 'GET', url: uri, headers: { ...headers, ...(name ? { authorization: auth(name) } : {}) } });
      const send = async (name: DevUserName, to: string, content: string, type = 'stream') =>
        expectSuccess(await ctx.as(name).post('/messages', { type, to, topic: 'files', content })).id as number;

      it('stores a file, answers uri and url, and serves it to its uploader with safe headers', async () => {
        const uri = await uploadOne('mark', 'notes.txt', 'hello, world');
        assert.match(uri, new RegExp(`^/user_uploads/${ctx.seed.realm.id}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/notes\\.txt$`));
        const res = await fetchFile('mark', uri);
        assert.equal(res.statusCode, 200);
        assert.equal(res.body, 'hello, world');
        assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
        assert.equal(res.headers['content-disposition'], 'inline; filename="notes.txt"');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.match(String(res.headers['content-security-policy']), /default-src 'none'.*sandbox/);
        assert.equal(res.headers['cache-control'], 'private, max-age=86400, immutable');
        assert.equal(res.headers['accept-ranges'], 'bytes');
        const again = await fetchFile('mark', uri, { 'if-none-match': String(res.headers.etag) });
        assert.equal(again.statusCode, 304);
      });

      it('answers byte ranges', async () => {
        const uri = await uploadOne('mark', 'digits.txt', '0123456789');
        const part = await fetchFile('mark', uri, { range: 'bytes=2-4' });
        assert.equal(part.statusCode, 206);
        assert.equal(part.body, '234');
        assert.equal(part.headers['content-range'], 'bytes 2-4/10');
        const tail = await fetchFile('mark', uri, { range: 'bytes=-3' });
        assert.equal(tail.body, '789');
        const bad = await fetchFile('mark', uri, { range: 'bytes=20-30' });
        assert.equal(bad.statusCode, 416);
        assert.equal(bad.headers['content-range'], 'bytes */10');
      });

      it('serves images inline, everything else (and liars) as attachments', async () => {
        const png = await fetchFile('mark', await uploadOne('mark', 'pic.png', PNG, 'image/png'));
        assert.equal(png.headers['content-type'], 'image/png');
        assert.equal(png.headers['content-disposition'], 'inline; filename="pic.png"');
        for (const [name, body] of [['evil.png', '<html><script>alert(1)</script></html>'], ['evil2.png', '<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>']] as const) {
          const res = await fetchFile('mark', await uploadOne('mark', name, body, 'image/png'));
          assert.equal(res.headers['content-type'], 'application/octet-stream', name);
          assert.equal(res.headers['content-disposition'], `attachment; filename="${name}"`);
          assert.equal(res.headers['x-content-type-options'], 'nosniff');
        }
        const svg = await fetchFile('mark', await uploadOne('mark', 'logo.svg', '<svg/>', 'image/svg+xml'));
        assert.equal(svg.headers['content-type'], 'image/svg+xml');
        assert.equal(svg.headers['content-disposition'], 'attachment; filename="logo.svg"');
        const html = await fetchFile('mark', await uploadOne('mark', 'page.html', '<p>x</p>'));
        assert.equal(html.headers['content-disposition'], 'attachment; filename="page.html"');
      });

      it('refuses missing, several and oversized files with the reference errors, leaving nothing behind', async () => {
        expectError(await upload('mark', [{ name: 'x', value: 'y' }]), 'You must specify a file to upload');
        expectError(
          await upload('mark', [
            { name: 'a', filename: 'a.txt', value: 'a' },
            { name: 'b', filename: 'b.txt', value: 'b' },
          ]),
          'You may only upload one file at a time',
        );
        expectError(await upload('mark', [{ name: 'f', filename: 'big.bin', value: Buffer.alloc(1024 * 1024 + 1) }]), "File is larger than this server's configured maximum upload size (1 MiB).");
        const spooled = (() => {
          try {
            return readdirSync(files.storage.spoolDir);
          } catch {
            return [];
          }
        })();
        assert.deepEqual(spooled, []);
      });

      it('keeps odd names safe: separators, .., control characters, 1,000 characters, empty files', async () => {
        const a = await uploadOne('mark', '../../etc/passwd', 'x');
        assert.match(a, /\/passwd$/);
        const b = await uploadOne('mark', '..', 'x');
        assert.match(b, /\/uploaded-file$/);
        const c = await uploadOne('mark', 'bad\u0001name\u007f.txt', 'x');
        assert.match(c, /\/badname\.txt$/);
        const long = await uploadOne('mark', `${'a'.repeat(1000)}.txt`, 'x');
        assert.ok(long.split('/').pop()!.length <= 200 && long.endsWith('.txt'));
        assert.equal((await fetchFile('mark', long)).statusCode, 200);
        const empty = await uploadOne('mark', 'empty.txt', '');
        const res = await fetchFile('mark', empty);
        assert.equal(res.statusCode, 200);
        assert.equal(res.body, '');
      });

      it('refuses anonymous and deactivated uploaders; guests may upload', async () => {
        expectError(await upload(null, [{ name: 'f', filename: 'a.txt', value: 'a' }]), 'Not logged in: API authentication or user session required', 'UNAUTHORIZED', 401);
        await uploadOne('gus', 'guest.txt', 'g');
        const { milo } = ctx.seed.users;
        await ctx.services.db.updateTable('user_profile').set({ is_active: 0 as never }).where('id', '=', milo.id).execute();
        try {
          expectError(await upload('milo', [{ name: 'f', filename: 'a.txt', value: 'a' }]), 'Account is deactivated', 'UNAUTHORIZED', 401);
        } finally {
          await ctx.services.db.updateTable('user_profile').set({ is_active: 1 as never }).where('id', '=', milo.id).execute();
        }
      });

      it('lets readers of a linking message read the file, as messages move, change and go', async () => {
        const uri = await uploadOne('mark', 'shared.txt', 'shared');
        const can = async (name: DevUserName) => (await fetchFile(name, uri)).statusCode;
        assert.equal(await can('mona'), 403);
        const id = await send('mark', 'general', `see [it](${uri})`);
        assert.equal(await can('mona'), 200);
        assert.equal(await can('gus'), 403); // a guest sees no stream they are not in
        // Moved into a private stream: only its subscribers (and the uploader) still read it.
        expectSuccess(await ctx.as('olivia').patch(`/messages/${id}`, { stream_id: ctx.seed.streams.leadership.id }));
        assert.equal(await can('mona'), 403);
        assert.equal(await can('adam'), 200);
        assert.equal(await can('mark'), 200);
        expectSuccess(await ctx.as('olivia').patch(`/messages/${id}`, { stream_id: ctx.seed.streams.general.id }));
        assert.equal(await can('mona'), 200);
        // Edited to drop the link.
        expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'nothing here' }));
        assert.equal(await can('mona'), 403);
        // Direct messages: their participants only.
        const dm = await send('mark', JSON.stringify([ctx.seed.users.mona.id]), `[dm](${uri})`, 'private');
        assert.equal(await can('mona'), 200);
        assert.equal(await can('milo'), 403);
        expectSuccess(await ctx.as('mark').delete(`/messages/${dm}`));
        assert.equal(await can('mona'), 403);
        assert.equal(await can('mark'), 200);
      });

      it('does not let a message open someone else\'s file to its readers', async () => {
        const uri = await uploadOne('adam', 'secret.txt', 'secret');
        await send('mark', 'general', `[stolen](${uri})`);
        assert.equal((await fetchFile('mona', uri)).statusCode, 403);
        assert.equal((await fetchFile('mark', uri)).statusCode, 403);
      });

      it('lists attachments with their messages, sends attachment events, and deletes them', async () => {
        ctx.clearEvents();
        const uri = await uploadOne('maya', 'list.txt', 'abc');
        const id = await send('maya', 'general', `[l](${uri}) and [again](${uri})`);
        const attachmentEvents = ctx.events.filter((e) => e.event.type === 'attachment');
        assert.deepEqual(attachmentEvents.map((e) => [e.event.op, e.users]), [['add', [ctx.seed.users.maya.id]], ['update', [ctx.seed.users.maya.id]]]);
        assert.deepEqual((attachmentEvents[1]!.event.attachment as any).messages.map((m: any) => m.id), [id]);
        attachmentEvents.forEach(({ event }, i) => checkEvent({ ...event, id: i }));
        const body = expectSuccess(await ctx.as('maya').get('/attachments'));
        const mine = (body.attachments as any[]).find((a) => `/user_uploads/${a.path_id}` === uri);
        assert.deepEqual({ name: mine.name, size: mine.size, messages: mine.messages.map((m: any) => m.id) }, { name: 'list.txt', size: 3, messages: [id] });
        assert.equal(typeof body.upload_space_used, 'number');
        const message = expectSuccess(await ctx.as('maya').get(`/messages/${id}`)).message;
        assert.ok(message);
        ctx.clearEvents();
        expectError(await ctx.as('mona').delete(`/attachments/${mine.id}`), 'Invalid attachment');
        expectSuccess(await ctx.as('maya').delete(`/attachments/${mine.id}`));
        const removed = ctx.events.find((e) => e.event.type === 'attachment');
        assert.deepEqual(removed?.event.attachment, { id: mine.id });
        assert.equal(removed?.event.op, 'remove');
        assert.deepEqual(removed?.users, [ctx.seed.users.maya.id]);
        checkEvent({ ...removed!.event, id: 0 });
        assert.equal((await fetchFile('maya', uri)).statusCode, 404);
        expectError(await ctx.as('maya').delete(`/attachments/${mine.id}`), 'Invalid attachment');
      });

      it('gives a temporary URL that works without credentials, for a minute', async () => {
        const uri = await uploadOne('mark', 'temp.txt', 'temporary');
        const res = expectSuccess(await ctx.as('mark').get(uri.replace('/user_uploads', '/user_uploads')));
        assert.match(res.url, /^\/user_uploads\/temporary\/[^/]+\/temp\.txt$/);
        const got = await fetchFile(null, res.url);
        assert.equal(got.statusCode, 200);
        assert.equal(got.body, 'temporary');
        expectError(await ctx.as('mona').get(uri), 'You are not authorized to view this file.', 'BAD_REQUEST', 403);
        const wrongName = JSON.parse((await fetchFile(null, res.url.replace(/temp\.txt$/, 'other.txt'))).body);
        assert.equal(wrongName.msg, 'Invalid filename');
        ctx.clock.advance(61);
        assert.equal(JSON.parse((await fetchFile(null, res.url)).body).msg, 'Invalid token');
      });

      it('refuses files of other organizations and unknown paths', async () => {
        const uri = await uploadOne('mark', 'here.txt', 'x');
        assert.equal((await fetchFile('mark', uri.replace(/^\/user_uploads\/\d+/, '/user_uploads/999'))).statusCode, 404);
        assert.equal((await fetchFile('mark', `${uri}x`)).statusCode, 404);
        assert.equal((await fetchFile(null, uri)).statusCode, 401);
      });

      it('sweeps old files no message links, and keeps a file another message still links', async () => {
        const lonely = await uploadOne('mark', 'lonely.txt', 'x');
        const kept = await uploadOne('mark', 'kept.txt', 'y');
        const one = await send('mark', 'general', `[k](${kept})`);
        await send('mark', 'general', `[k again](${kept})`);
        expectSuccess(await ctx.as('mark').delete(`/messages/${one}`));
        ctx.clock.advance(31 * 86400);
        const fresh = await uploadOne('mark', 'fresh.txt', 'z');
        assert.ok((await sweepUnclaimedUploads(ctx.services)) >= 1);
        assert.equal((await fetchFile('mark', fresh)).statusCode, 200);
        assert.equal((await fetchFile('mark', lonely)).statusCode, 404);
        assert.equal((await fetchFile('mona', kept)).statusCode, 200);
        assert.equal(await files.storage.stat(lonely.replace('/user_uploads/', '')), null);
      });

      it('reports the upload limits in register', async () => {
        const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));
        assert.equal(state.max_file_upload_size_mib, 1);
        assert.equal(state.realm_upload_quota_mib, null);
      });
    });
  }
}
