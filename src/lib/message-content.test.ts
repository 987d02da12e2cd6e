import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../errors.js';
import { EMPTY_TOPIC, normalizeContent, normalizeTopic } from './message-content.js';

function rejects(fn: () => unknown, msg: string) {
  assert.throws(fn, (error: unknown) => error instanceof ApiError && error.message === msg);
}

describe('normalizeContent', () => {
  it('strips trailing space and leading blank lines, keeps inner layout', () => {
    assert.equal(normalizeContent('\n\n  hello\n world  \n\n'), '  hello\n world');
  });

  it('refuses empty and NUL content', () => {
    rejects(() => normalizeContent(''), 'Message must not be empty');
    rejects(() => normalizeContent(' \n\t '), 'Message must not be empty');
    rejects(() => normalizeContent('a\u0000b'), 'Message must not contain null bytes');
  });

  it('truncates to the limit with a note, counting code points', () => {
    const long = 'x'.repeat(10001);
    const out = normalizeContent(long);
    assert.equal(out, `${'x'.repeat(9980)}\n[message truncated]`);
    assert.equal([...out].length, 10000);
    assert.equal(normalizeContent('😀'.repeat(10000)), '😀'.repeat(10000));
    assert.equal(normalizeContent('😀'.repeat(10001)), `${'😀'.repeat(9980)}\n[message truncated]`);
  });
});

describe('normalizeTopic', () => {
  it('strips and keeps short topics', () => {
    assert.equal(normalizeTopic('  lunch  '), 'lunch');
  });

  it('stores an empty topic as (no topic)', () => {
    assert.equal(normalizeTopic('   '), EMPTY_TOPIC);
  });

  it('truncates past 60 characters to 57 and an ellipsis', () => {
    assert.equal(normalizeTopic('t'.repeat(60)), 't'.repeat(60));
    assert.equal(normalizeTopic('t'.repeat(61)), `${'t'.repeat(57)}...`);
  });

  it('refuses unprintable characters with their position', () => {
    rejects(() => normalizeTopic('ab\u0007c'), 'Invalid character in topic, at position 3!');
    rejects(() => normalizeTopic('a\u0000'), 'Invalid character in topic, at position 2!');
  });
});
