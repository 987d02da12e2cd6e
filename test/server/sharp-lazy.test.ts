// sharp (and libvips, tens of MB) is loaded the first time an image is processed, not when the
// server starts: test files share a process, so a fresh one probes (reading Linux's /proc).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const probe = fileURLToPath(new URL('./sharp-lazy-probe.ts', import.meta.url));

describe('sharp is loaded lazily', () => {
  it('is not in memory after the app and the image routes load, and is once asked for', () => {
    const result = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', probe], { encoding: 'utf8' })) as unknown;
    assert.deepEqual(result, { before: false, after: true });
  });
});
