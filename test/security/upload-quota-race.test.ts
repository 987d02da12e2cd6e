// The organization's upload quota holds under concurrent uploads: the space is reserved in the
// transaction that records the attachment, so parallel uploads that each fit alone but not
// together are refused past the quota, and a refused upload leaves no file in storage.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DiskStorage } from '../../src/adapters/storage/disk.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { type ApiResponse, ApiClient, expectError } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';

const MIB = 1024 * 1024;
const QUOTA_ERROR = "Upload would exceed your organization's upload quota.";

/** Every stored file under a folder (the spool folder aside). */
function storedFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !join(entry.parentPath, entry.name).includes('.incoming'))
    .map((entry) => entry.name);
}

for (const dialect of testDialects()) {
  describe(`upload quota under concurrent uploads [${dialect}]`, () => {
    let ctx: TestContext;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'confab-quota-'));
      ctx = await setup(dialect, { storage: new DiskStorage(dir), config: { uploadQuotaMib: 3 } });
    });
    after(async () => {
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    });

    async function upload(user: DevUserName, name: string, size: number): Promise<ApiResponse> {
      const { payload, contentType } = multipartBody([{ name: 'file', filename: name, value: Buffer.alloc(size, 7) }]);
      const { delivery_email, api_key } = ctx.seed.users[user];
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/user_uploads',
        headers: { authorization: ApiClient.basic(delivery_email, api_key), 'content-type': contentType },
        payload,
      });
      return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
    }

    it('accepts only what fits of six parallel uploads, and keeps no file of the refused ones', async () => {
      const users: DevUserName[] = ['mark', 'milo', 'mona', 'mark', 'milo', 'mona'];
      const answers = await Promise.all(users.map((user, i) => upload(user, `part${i}.bin`, 1.9 * MIB)));
      const accepted = answers.filter((res) => res.status === 200);
      assert.equal(accepted.length, 1, JSON.stringify(answers.map((res) => res.body)));
      for (const res of answers.filter((r) => r.status !== 200)) expectError(res, QUOTA_ERROR, 'REALM_UPLOAD_QUOTA');
      const rows = await ctx.services.db.selectFrom('attachment').select(['path_id', 'size']).where('realm_id', '=', ctx.seed.realm.id).execute();
      assert.equal(rows.length, 1);
      assert.equal(Number(rows[0]!.size), Math.floor(1.9 * MIB));
      assert.deepEqual(storedFiles(dir), [rows[0]!.path_id.split('/').pop()]);
    });

    it('still takes an upload that fits in what is left, in parallel with one that does not', async () => {
      const [small, large] = await Promise.all([upload('mona', 'small.bin', MIB), upload('mark', 'large.bin', 1.5 * MIB)]);
      assert.equal(small.status, 200, JSON.stringify(small.body));
      expectError(large, QUOTA_ERROR, 'REALM_UPLOAD_QUOTA');
      assert.equal(storedFiles(dir).length, 2);
    });
  });
}
