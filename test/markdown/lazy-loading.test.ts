// The emoji table and the highlighter are loaded on first use, not when the server starts: a
// small idle process does not pay for them. Test files share a process, so a fresh one probes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const probe = fileURLToPath(new URL('./lazy-loading-probe.ts', import.meta.url));
const none = { highlighter: false, python: false, rust: false, allGrammars: false, emojiTable: false };

describe('lazy loading', () => {
  it('loads the highlighter, one grammar at a time, and the emoji table only when a message needs them', () => {
    const steps = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', probe], { encoding: 'utf8' })) as Record<string, unknown>;
    assert.deepEqual(steps, {
      started: none,
      plain: none,
      python: { ...none, highlighter: true, python: true },
      emoji: { ...none, highlighter: true, python: true, emojiTable: true },
    });
  });
});
