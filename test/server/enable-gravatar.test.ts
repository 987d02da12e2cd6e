// The --enable-gravatar flag (CONFAB_ENABLE_GRAVATAR): off unless the operator turns it on.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { defaultConfig, loadConfig } from '../../src/config.js';

const run = promisify(execFile);

describe('--enable-gravatar', () => {
  it('is off by default, and on by flag or environment', () => {
    assert.equal(defaultConfig.enableGravatar, false);
    assert.equal(loadConfig({}, {}).enableGravatar, false);
    assert.equal(loadConfig({ 'enable-gravatar': true }, {}).enableGravatar, true);
    assert.equal(loadConfig({}, { CONFAB_ENABLE_GRAVATAR: '1' }).enableGravatar, true);
    assert.equal(loadConfig({}, { CONFAB_ENABLE_GRAVATAR: 'off' }).enableGravatar, false);
  });

  it('is a flag the command line knows and documents', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', '--enable-gravatar', '--help']);
    assert.match(stdout, /--enable-gravatar +users without an uploaded avatar get a Gravatar/);
  });
});
