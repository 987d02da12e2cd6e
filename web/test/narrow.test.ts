// Narrows to Zulip-style hash URLs and back, and to the API's narrow terms.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHashComponent, encodeHashComponent, hashToNarrow, type Narrow, narrowTerms, narrowToHash } from '../src/narrow.js';

const names = new Map([[42, 'general'], [7, 'design team']]);
const nameOf = (id: number) => names.get(id) ?? String(id);

describe('narrow URLs', () => {
  it('writes the hashes Zulip writes', () => {
    assert.equal(narrowToHash({ kind: 'stream', streamId: 42, topic: 'lunch' }, nameOf), '#narrow/stream/42-general/topic/lunch');
    assert.equal(narrowToHash({ kind: 'stream', streamId: 7 }, nameOf), '#narrow/stream/7-design-team');
    assert.equal(narrowToHash({ kind: 'stream', streamId: 42, topic: 'v1.2 (beta)?' }, nameOf), '#narrow/stream/42-general/topic/v1.2E2.20.28beta.29.3F');
    assert.equal(narrowToHash({ kind: 'all' }, nameOf), '#all_messages');
    assert.equal(narrowToHash({ kind: 'dm' }, nameOf), '#narrow/is/dm');
    assert.equal(narrowToHash({ kind: 'mentioned' }, nameOf), '#narrow/is/mentioned');
    assert.equal(narrowToHash({ kind: 'starred' }, nameOf), '#narrow/is/starred');
  });

  it('reads back every narrow it writes', () => {
    const narrows: Narrow[] = [
      { kind: 'all' },
      { kind: 'dm' },
      { kind: 'mentioned' },
      { kind: 'starred' },
      { kind: 'stream', streamId: 7 },
      { kind: 'stream', streamId: 42, topic: 'lunch' },
      { kind: 'stream', streamId: 42, topic: 'ünïcode 100% .dots. & #hash/slash' },
    ];
    for (const n of narrows) assert.deepEqual(hashToNarrow(narrowToHash(n, nameOf)), n);
  });

  it('reads the older spellings and ignores what it does not know', () => {
    assert.deepEqual(hashToNarrow('#narrow/channel/42-general/subject/lunch'), { kind: 'stream', streamId: 42, topic: 'lunch' });
    assert.deepEqual(hashToNarrow('#narrow/is/private'), { kind: 'dm' });
    assert.deepEqual(hashToNarrow('#narrow/stream/general'), { kind: 'all' });
    assert.deepEqual(hashToNarrow('#settings'), { kind: 'all' });
    assert.deepEqual(hashToNarrow(''), { kind: 'all' });
  });

  it('decodes a malformed escape as it stands', () => {
    assert.equal(decodeHashComponent('a.E2.28'), 'a.E2.28');
    assert.equal(decodeHashComponent(encodeHashComponent('a.b')), 'a.b');
  });

  it('turns narrows into GET /messages terms', () => {
    assert.deepEqual(narrowTerms({ kind: 'all' }), []);
    assert.deepEqual(narrowTerms({ kind: 'stream', streamId: 42, topic: 'lunch' }), [
      { operator: 'stream', operand: 42 },
      { operator: 'topic', operand: 'lunch' },
    ]);
    assert.deepEqual(narrowTerms({ kind: 'dm' }), [{ operator: 'is', operand: 'dm' }]);
  });
});
