// Multipart bodies cost the server only what the route they go to needs: routes that take no file
// refuse a file part as soon as it starts and hold the whole body to MAX_BODY_BYTES, before any
// authentication; upload routes authenticate first and take exactly one file, no larger than
// their limit, refusing the rest as it arrives. A malformed body is a 400 with its own message.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { storageOf } from '../../src/adapters/storage/services.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { MAX_BODY_BYTES, MAX_BODY_FIELDS } from '../../src/lib/limits.js';
import { type ApiResponse, ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { pngImage } from '../support/images.js';
import { multipartBody, type MultipartPart } from '../support/multipart.js';
import { streamingRequest } from '../support/streaming-request.js';

const NO_FILES = 'This endpoint does not accept file uploads';
const TOO_LARGE = 'Request body is too large';
const TRUNCATED = 'Invalid multipart body: it ends before its closing boundary';
const NO_BOUNDARY = 'Invalid multipart body: its Content-Type names no boundary';
const LONG_BOUNDARY = 'Invalid multipart body: its boundary is longer than 200 characters';
const TOO_MANY_FIELDS = `The request has too many parameters (limit: ${MAX_BODY_FIELDS})`;
const OVER_UPLOAD_LIMIT = "File is larger than this server's configured maximum upload size (1 MiB).";

const BOUNDARY = 'walk-boundary-Q3';
const MIB = 1024 * 1024;
const fieldHead = (name: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`;
const fileHead = (name: string, filename: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const multipartType = `multipart/form-data; boundary=${BOUNDARY}`;

for (const dialect of testDialects()) {
  describe(`multipart bodies [${dialect}]`, () => {
    let ctx: TestContext;
    let port: number;
    let png: Buffer;
    before(async () => {
      ctx = await setup(dialect, { config: { maxFileUploadSizeMib: 1 } });
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      port = (ctx.app.server.address() as AddressInfo).port;
      png = await pngImage(40, 40);
    });
    after(() => ctx.close());

    const auth = (name: DevUserName) => ApiClient.basic(ctx.seed.users[name].delivery_email, ctx.seed.users[name].api_key);
    const spooled = () => {
      try {
        return readdirSync(storageOf(ctx.services).spoolDir);
      } catch {
        return [];
      }
    };

    async function post(path: string, payload: string | Buffer, contentType: string, user: DevUserName | null = null): Promise<ApiResponse> {
      const headers: Record<string, string> = { 'content-type': contentType };
      if (user) headers.authorization = auth(user);
      const res = await ctx.app.inject({ method: 'POST', url: `/api/v1${path}`, headers, payload });
      return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
    }
    const postParts = (path: string, parts: MultipartPart[], user: DevUserName | null = null) => {
      const { payload, contentType } = multipartBody(parts);
      return post(path, payload, contentType, user);
    };

    it('refuses a file part outside the upload routes as soon as it starts, before authentication', async () => {
      for (const path of ['/api/v1/messages', '/json/messages']) {
        // 40 files of 20 MB on their way, in chunks of unknown total; one megabyte of the first is all that is sent.
        const req = streamingRequest(port, path, { 'content-type': multipartType, 'transfer-encoding': 'chunked' });
        await req.write(fieldHead('type') + 'stream\r\n');
        await req.write(fileHead('f1', 'big.bin'));
        await req.write(Buffer.alloc(MIB, 1));
        const answer = await req.answer();
        req.close();
        assert.equal(answer.status, 400, path);
        assert.deepEqual(answer.body, { result: 'error', msg: NO_FILES, code: 'BAD_REQUEST' });
        assert.equal(answer.headers.connection, 'close');
      }
      // With credentials, and on a public route, the same.
      expectError(await postParts('/messages/render', [{ name: 'content', value: 'x' }, { name: 'f', filename: 'a.txt', value: 'a' }], 'mark'), NO_FILES);
      expectError(await postParts('/fetch_api_key', [{ name: 'f', filename: 'a.txt', value: 'a' }]), NO_FILES);
    });

    it('refuses a multipart body past MAX_BODY_BYTES as it arrives', async () => {
      const req = streamingRequest(port, '/api/v1/messages', { 'content-type': multipartType, 'transfer-encoding': 'chunked' });
      await req.write(fieldHead('content'));
      for (let i = 0; i < 5; i++) await req.write(Buffer.alloc(MIB, 0x61));
      const answer = await req.answer();
      req.close();
      assert.equal(answer.status, 413);
      assert.deepEqual(answer.body, { result: 'error', msg: TOO_LARGE, code: 'BAD_REQUEST' });
      // A body that says it is larger is refused before a byte of it is read.
      const declared = streamingRequest(port, '/api/v1/messages', { 'content-type': multipartType, 'content-length': String(MAX_BODY_BYTES + 1) });
      await declared.write(fieldHead('content'));
      const early = await declared.answer();
      declared.close();
      assert.equal(early.status, 413);
      assert.deepEqual(early.body, { result: 'error', msg: TOO_LARGE, code: 'BAD_REQUEST' });
      // Whole bodies: one byte of fields past the limit, spread over many fields, is refused too.
      const fields = Array.from({ length: 8 }, (_, i) => ({ name: `f${i}`, value: 'x'.repeat(MAX_BODY_BYTES / 8) }));
      expectError(await postParts('/messages/render', fields, 'mark'), TOO_LARGE, 'BAD_REQUEST', 413);
      const render = expectSuccess(await postParts('/messages/render', [{ name: 'content', value: 'y'.repeat(9000) }], 'mark'));
      assert.equal(render.rendered, `<p>${'y'.repeat(9000)}</p>`);
    });

    it('bounds the parameters of multipart, form and JSON bodies', async () => {
      const names = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? 'content' : `extra${i}`));
      const most = expectSuccess(await postParts('/messages/render', names(MAX_BODY_FIELDS).map((name) => ({ name, value: 'z' })), 'mark'));
      assert.equal(most.ignored_parameters_unsupported.length, MAX_BODY_FIELDS - 1);
      const tooMany = names(MAX_BODY_FIELDS + 1);
      expectError(await postParts('/messages/render', tooMany.map((name) => ({ name, value: 'z' })), 'mark'), TOO_MANY_FIELDS);
      expectError(await post('/messages/render', tooMany.map((name) => `${name}=z`).join('&'), 'application/x-www-form-urlencoded', 'mark'), TOO_MANY_FIELDS);
      expectError(await post('/messages/render', JSON.stringify(Object.fromEntries(tooMany.map((name) => [name, 'z']))), 'application/json', 'mark'), TOO_MANY_FIELDS);
      // Repeated names count one each time they appear.
      expectError(await post('/messages', 'a=1&'.repeat(500_000), 'application/x-www-form-urlencoded'), TOO_MANY_FIELDS);
    });

    it('answers a body that ends before its closing boundary with a 400', async () => {
      expectError(await post('/messages', `${fieldHead('type')}stream\r\n${fieldHead('content')}cut off`, multipartType), TRUNCATED);
      const cutFile = `${fileHead('file', 'cut.bin')}${'q'.repeat(50_000)}`;
      expectError(await post('/user_uploads', cutFile, multipartType, 'mark'), TRUNCATED);
      expectError(await post('/users/me/avatar', `${fileHead('file', 'a.png')}${png.toString('latin1')}`, multipartType, 'mark'), TRUNCATED);
      assert.deepEqual(spooled(), []);
    });

    it('answers a missing or overlong boundary with a 400, before authentication', async () => {
      const body = (boundary: string) => `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\nhi\r\n--${boundary}--\r\n`;
      for (const length of [201, 257, 300, 5000]) {
        const boundary = 'b'.repeat(length);
        expectError(await post('/messages', body(boundary), `multipart/form-data; boundary=${boundary}`), LONG_BOUNDARY);
        expectError(await post('/user_uploads', body(boundary), `multipart/form-data; boundary=${boundary}`, 'mark'), LONG_BOUNDARY);
      }
      const longest = 'c'.repeat(200);
      expectSuccess(await post('/messages/render', body(longest), `multipart/form-data; boundary=${longest}`, 'mark'));
      expectError(await post('/messages', 'x', 'multipart/form-data'), NO_BOUNDARY);
      expectError(await post('/messages', 'x', 'multipart/form-data; charset=utf-8'), NO_BOUNDARY);
    });

    it('answers odd but complete bodies of every kind with a Zulip error, never a 5xx', async () => {
      const part = (head: string, value = '1') => `--${BOUNDARY}\r\n${head}\r\n\r\n${value}\r\n--${BOUNDARY}--\r\n`;
      const odd: Array<[string, string]> = [
        [multipartType, part(`X-Big: ${'y'.repeat(100_000)}\r\nContent-Disposition: form-data; name="a"`)],
        [multipartType, part(`${'X: y\r\n'.repeat(3000)}Content-Disposition: form-data; name="a"`)],
        [multipartType, part('Content-Disposition: form-data; name="a"\r\nContent-Type: text/plain; charset=bogus')],
        [multipartType, part('Content-Disposition: form-data; name="a"\r\nContent-Type: application/json', '{bad')],
        [multipartType, part('Content-Disposition: attachment; name="a"')],
        [multipartType, part('Content-Disposition: form-data; name="__proto__"')],
        [multipartType, 'no boundary anywhere'],
        [multipartType, `--${BOUNDARY}--\r\n`],
        ['multipart/form-data; boundary=" "', 'x'],
        ['application/json; charset=utf-16', '{"a":1}'],
        ['application/json', '{"__proto__":{"x":1}}'],
        ['application/x-www-form-urlencoded; charset=latin1', 'a=%ff&b=%zz&c=%'],
      ];
      for (const [contentType, payload] of odd) {
        for (const path of ['/messages', '/user_uploads']) {
          const res = await post(path, payload, contentType, path === '/user_uploads' ? 'mark' : null);
          assert.ok(res.status >= 400 && res.status < 500, `${contentType} ${JSON.stringify(payload.slice(0, 60))} to ${path}: ${res.status}`);
          assert.equal(res.body.result, 'error');
          assert.equal(typeof res.body.code, 'string');
        }
      }
    });

    it('authenticates an upload route before reading any of its body', async () => {
      const req = streamingRequest(port, '/api/v1/user_uploads', { 'content-type': multipartType, 'content-length': String(500 * MIB) });
      await req.write(fileHead('file', 'big.bin'));
      await req.write(Buffer.alloc(MIB, 2));
      const answer = await req.answer();
      req.close();
      assert.equal(answer.status, 401);
      assert.equal(answer.body.code, 'UNAUTHORIZED');
      assert.deepEqual(spooled(), []);
    });

    it('takes exactly one file part on each upload route, refusing a second as it starts', async () => {
      const file = (name: string): MultipartPart => ({ name, filename: `${name}.png`, value: png, contentType: 'image/png' });
      const routes: Array<[string, string]> = [
        ['/user_uploads', 'You may only upload one file at a time'],
        ['/users/me/avatar', 'You must upload exactly one avatar.'],
        ['/realm/icon', 'You must upload exactly one icon.'],
        ['/realm/logo', 'You must upload exactly one logo.'],
        ['/realm/emoji/two_files', 'You must upload exactly one file.'],
      ];
      for (const [path, msg] of routes) {
        const night = { name: 'night', value: 'false' };
        expectError(await postParts(path, [night, file('a'), file('b')], 'adam'), msg);
        expectError(await postParts(path, [night, file('a'), { name: 'x', value: 'y' }, file('b'), file('c')], 'adam'), msg);
        expectSuccess(await postParts(path, [night, file('a')], 'adam'));
      }
      // The second file is refused as it starts: its megabytes are never read, let alone spooled.
      const req = streamingRequest(port, '/api/v1/user_uploads', {
        authorization: auth('mark'),
        'content-type': multipartType,
        'content-length': String(200 * MIB),
      });
      await req.write(`${fileHead('file', 'one.txt')}one\r\n`);
      await req.write(fileHead('file2', 'two.bin'));
      await req.write(Buffer.alloc(MIB, 3));
      const answer = await req.answer();
      req.close();
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, { result: 'error', msg: 'You may only upload one file at a time', code: 'BAD_REQUEST' });
      assert.deepEqual(spooled(), []);
    });

    it("refuses a file over the server's upload limit with the reference's 400, as it arrives", async () => {
      const over = await postParts('/user_uploads', [{ name: 'file', filename: 'big.bin', value: Buffer.alloc(MIB + 1) }], 'mark');
      expectError(over, OVER_UPLOAD_LIMIT);
      expectSuccess(await postParts('/user_uploads', [{ name: 'file', filename: 'fits.bin', value: Buffer.alloc(MIB) }], 'mark'));
      const req = streamingRequest(port, '/api/v1/user_uploads', {
        authorization: auth('mark'),
        'content-type': multipartType,
        'content-length': String(300 * MIB),
      });
      await req.write(fileHead('file', 'huge.bin'));
      for (let i = 0; i < 3; i++) await req.write(Buffer.alloc(MIB, 4));
      const answer = await req.answer();
      req.close();
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, { result: 'error', msg: OVER_UPLOAD_LIMIT, code: 'BAD_REQUEST' });
      assert.deepEqual(spooled(), []);
    });
  });
}
