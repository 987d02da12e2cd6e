// The storage contract, the same for local disk and S3 (against s3rver): store a spooled file,
// read it whole and in ranges, stat, delete, refuse keys that could escape the root; for S3 also
// that requests are really signed (wrong credentials fail) and the URL's options are read.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { S3Storage, s3OptionsFromUrl, signV4 } from '../../src/adapters/storage/s3.js';
import type { SpooledFile } from '../../src/adapters/storage/types.js';
import { openTestStorage, STORAGE_KINDS, type TestStorage } from '../support/storages.js';

async function text(body: Readable): Promise<string> {
  let out = '';
  for await (const chunk of body) out += String(chunk);
  return out;
}

function spool(dir: string, name: string, content: string): SpooledFile {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, content);
  return { path, size: Buffer.byteLength(content), sha256: createHash('sha256').update(content).digest('hex') };
}

for (const kind of STORAGE_KINDS) {
  describe(`file storage [${kind}]`, () => {
    let files: TestStorage;
    before(async () => (files = await openTestStorage(kind)));
    after(() => files.close());

    it('stores, reads, ranges, stats and deletes', async () => {
      const { storage } = files;
      const file = spool(storage.spoolDir, 'a.part', 'abcdefghij');
      await storage.putFile('7/ab/key/name with space.txt', file, 'text/plain');
      assert.equal(existsSync(file.path), false, 'the spooled file is consumed');
      assert.equal(await storage.stat('7/ab/key/name with space.txt'), 10);
      const whole = await storage.get('7/ab/key/name with space.txt');
      assert.equal(whole?.size, 10);
      assert.equal(await text(whole!.body), 'abcdefghij');
      const part = await storage.get('7/ab/key/name with space.txt', { start: 3, end: 5 });
      assert.equal(part?.size, 10);
      assert.equal(await text(part!.body), 'def');
      await storage.delete('7/ab/key/name with space.txt');
      assert.equal(await storage.stat('7/ab/key/name with space.txt'), null);
      assert.equal(await storage.get('7/ab/key/name with space.txt'), null);
      await storage.delete('7/ab/key/name with space.txt');
    });

    it('refuses keys that could leave its root', async () => {
      for (const key of ['../x', '/x', 'a/../b', 'a//b', '', 'a/./b', 'a\\b']) {
        await assert.rejects(files.storage.stat(key), /bad storage key/, key);
      }
    });
  });
}

describe('S3 client', () => {
  let files: TestStorage;
  before(async () => (files = await openTestStorage('s3')));
  after(() => files.close());

  it('signs requests as AWS Signature Version 4 does (the GET Object example of the S3 documentation)', () => {
    // s3rver accepts any version 4 signature, so the signing is checked against AWS's own example.
    const req = { method: 'GET', url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'), headers: { range: 'bytes=0-9' } as Record<string, string> };
    const credentials = { region: 'us-east-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
    signV4(req, credentials, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', new Date('2013-05-24T00:00:00Z'));
    assert.equal(
      req.headers.authorization,
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('answers S3 errors as errors, not as missing files', async () => {
    const good = files.storage as S3Storage;
    const endpoint = (good as unknown as { options: { endpoint: string } }).options.endpoint;
    const unknownKey = new S3Storage({ bucket: 'uploads', endpoint, region: 'us-east-1', prefix: '', accessKeyId: 'NOBODY', secretAccessKey: 'x', spoolDir: good.spoolDir });
    await assert.rejects(unknownKey.get('1/x'), /S3 GET failed with HTTP 403/);
    const noBucket = new S3Storage({ bucket: 'missing', endpoint, region: 'us-east-1', prefix: '', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', spoolDir: good.spoolDir });
    await assert.rejects(noBucket.putFile('1/x', spool(good.spoolDir, 'b.part', 'x'), 'text/plain'), /S3 PUT failed with HTTP 404/);
  });

  it('reads bucket, endpoint, region and prefix from the storage URL, credentials from the environment', () => {
    const env = { AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 'secret' };
    assert.deepEqual(s3OptionsFromUrl('s3://files?endpoint=http://127.0.0.1:9000/&region=eu-west-1&prefix=/confab/', env), {
      bucket: 'files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      prefix: 'confab',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
    assert.equal(s3OptionsFromUrl('s3://files', { ...env, AWS_REGION: 'us-west-2' }).endpoint, 'https://s3.us-west-2.amazonaws.com');
    assert.throws(() => s3OptionsFromUrl('s3://files', {}), /needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    assert.throws(() => s3OptionsFromUrl('http://files', env), /A storage URL is s3:\/\/BUCKET/);
  });
});
