// An upload to a full disk (the spool file cannot be written) is an outage worth retrying, not a
// bug: 503 with Retry-After, as a write to a full store is (test/db/store-errors.test.ts).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DiskStorage } from '../../src/adapters/storage/disk.js';
import { ApiClient } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { multipartBody } from '../support/multipart.js';
import { SMALL_DISK_UNAVAILABLE, SmallDisk } from '../support/small-disk.js';

describe('uploads on a full disk', { skip: SMALL_DISK_UNAVAILABLE ?? false }, () => {
  let disk: SmallDisk;
  let ctx: TestContext;
  before(async () => {
    disk = new SmallDisk(1024);
    ctx = await setup('sqlite', { storage: new DiskStorage(join(disk.dir, 'uploads')) });
  });
  after(async () => {
    try {
      await ctx?.close();
    } finally {
      disk?.unmount();
    }
  });

  async function upload(bytes: number) {
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'big.bin', value: Buffer.alloc(bytes, 7) }]);
    const mark = ctx.seed.users.mark;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/user_uploads',
      headers: { 'content-type': contentType, authorization: ApiClient.basic(mark.delivery_email, mark.api_key) },
      payload,
    });
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: JSON.parse(res.body) as Record<string, unknown> };
  }

  it('answers 503 DISK_FULL with Retry-After, then takes uploads again once there is room', async () => {
    disk.fill();
    assert.deepEqual(await upload(64 * 1024), {
      status: 503,
      retryAfter: '60',
      body: { result: 'error', msg: 'The server is out of disk space; try again later', code: 'DISK_FULL', 'retry-after': 60 },
    });
    disk.free();
    const again = await upload(64 * 1024);
    assert.equal(again.status, 200);
    assert.equal(again.body.result, 'success');
  });
});
