// Which failures to start are lack of disk space, said in one line (the real full disk is in
// test/server/start.test.ts).
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { freeBytes, outOfSpaceMessage, STARTUP_FREE_BYTES } from '../../src/db/out-of-space.js';

describe('outOfSpaceMessage', () => {
  // The machine's temporary folder has room to spare.
  const roomy = { dataDir: join(tmpdir(), 'confab-not-made-yet', 'data') };

  it('names the PostgreSQL server when it is out of space', () => {
    const error = Object.assign(new Error('could not extend file "base/16384/2619": No space left on device'), { code: '53100' });
    assert.equal(
      outOfSpaceMessage(error, { ...roomy, databaseUrl: 'postgres://db/confab' }),
      'Confab cannot start: the PostgreSQL server is out of disk space (could not extend file "base/16384/2619": No space left on device).',
    );
  });

  it('leaves a disk error alone when the data directory has room (a cap on the file, a failing disk)', () => {
    assert.ok(freeBytes(roomy.dataDir)! >= STARTUP_FREE_BYTES);
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC']) assert.equal(outOfSpaceMessage({ code, message: 'x' }, roomy), null, code);
  });

  it('leaves other failures alone', () => {
    assert.equal(outOfSpaceMessage(Object.assign(new Error('no such table'), { code: 'SQLITE_ERROR' }), roomy), null);
    assert.equal(outOfSpaceMessage(new TypeError('x is undefined'), roomy), null);
    assert.equal(outOfSpaceMessage(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), { ...roomy, databaseUrl: 'postgres://db/confab' }), null);
  });
});
