// Uploads over a real connection, on both storage backends: a large file streams through to
// storage intact, a connection broken mid-upload leaves nothing behind, and the organization's
// quota is enforced with the reference's error.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';
import { openTestStorage, STORAGE_KINDS, type TestStorage } from '../support/storages.js';
import { waitUntil } from '../support/wait.js';

const BOUNDARY = 'stream-boundary-x7';
const HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const TAIL = `\r\n--${BOUNDARY}--\r\n`;

for (const dialect of testDialects()) {
  for (const kind of STORAGE_KINDS) {
    describe(`uploads over a connection [${dialect}, ${kind}]`, () => {
      let ctx: TestContext;
      let files: TestStorage;
      let port: number;
      before(async () => {
        files = await openTestStorage(kind);
        ctx = await setup(dialect, { storage: files.storage, config: { uploadQuotaMib: 30 } });
        await ctx.app.listen({ host: '127.0.0.1', port: 0 });
        port = (ctx.app.server.address() as AddressInfo).port;
      });
      after(async () => {
        await ctx.close();
        await files.close();
      });

      const mark = () => ApiClient.basic(ctx.seed.users.mark.delivery_email, ctx.seed.users.mark.api_key);
      const spooled = () => {
        try {
          return readdirSync(files.storage.spoolDir);
        } catch {
          return [];
        }
      };
      const open = (length: number) =>
        request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/user_uploads',
          headers: { authorization: mark(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(length) },
        });

      it('streams a 20 MB file through to storage, byte for byte', async () => {
        const chunk = Buffer.alloc(1024 * 1024);
        const hash = createHash('sha256');
        const req = open(HEAD.length + 20 * chunk.length + TAIL.length);
        const answer = new Promise<string>((resolve, reject) => {
          req.on('response', (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve(body));
          });
          req.on('error', reject);
        });
        req.write(HEAD);
        for (let i = 0; i < 20; i++) {
          chunk.fill(i);
          hash.update(chunk);
          if (!req.write(chunk)) await new Promise((resolve) => req.once('drain', resolve));
        }
        req.end(TAIL);
        const body = JSON.parse(await answer);
        assert.equal(body.result, 'success', JSON.stringify(body));
        const download = await ctx.app.inject({ method: 'GET', url: body.uri, headers: { authorization: mark() } });
        assert.equal(download.statusCode, 200);
        assert.equal(download.rawPayload.length, 20 * chunk.length);
        assert.equal(createHash('sha256').update(download.rawPayload).digest('hex'), hash.digest('hex'));
        assert.deepEqual(spooled(), []);
      });

      it('leaves nothing behind when the connection breaks mid-upload', async () => {
        const before = (expectSuccess(await ctx.as('mark').get('/attachments')).attachments as unknown[]).length;
        const req = open(HEAD.length + 8 * 1024 * 1024 + TAIL.length);
        req.on('error', () => undefined);
        req.write(HEAD);
        req.write(Buffer.alloc(512 * 1024, 1));
        await waitUntil(() => spooled().length > 0, 5000);
        req.destroy();
        await waitUntil(() => spooled().length === 0, 5000);
        assert.equal((expectSuccess(await ctx.as('mark').get('/attachments')).attachments as unknown[]).length, before);
      });

      it("refuses an upload past the organization's quota", async () => {
        const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));
        assert.equal(state.realm_upload_quota_mib, 30);
        const { payload, contentType } = multipartBody([{ name: 'file', filename: 'more.bin', value: Buffer.alloc(11 * 1024 * 1024) }]);
        const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/user_uploads', headers: { authorization: mark(), 'content-type': contentType }, payload });
        expectError({ status: res.statusCode, body: JSON.parse(res.body), headers: res.headers }, "Upload would exceed your organization's upload quota.", 'REALM_UPLOAD_QUOTA');
        assert.deepEqual(spooled(), []);
      });
    });
  }
}
