// Narrows to Zulip-style hash URLs and back, and to the API's narrow terms.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHashComponent, encodeHashComponent, hashToNarrow, type Narrow, narrowAnchor, narrowTerms, narrowToHash, termsToNarrow } from '../src/narrow.js';

const names = new Map([[42, 'general'], [7, 'design team']]);
const nameOf = (id: number) => names.get(id) ?? String(id);
const people = new Map([[12, 'Mark Member'], [14, 'Mona Member']]);
const personOf = (id: number) => people.get(id) ?? '';

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

  it('writes Zulip URLs for direct messages, senders, searches and other operators', () => {
    assert.equal(narrowToHash({ kind: 'dm', userIds: [12] }, nameOf, personOf), '#narrow/dm/12-Mark-Member');
    assert.equal(narrowToHash({ kind: 'dm', userIds: [12, 14] }, nameOf, personOf), '#narrow/dm/12,14-group');
    assert.equal(narrowToHash({ kind: 'search', terms: [{ operator: 'search', operand: 'fish & chips' }] }, nameOf), '#narrow/search/fish.20.26.20chips');
    assert.equal(narrowToHash({ kind: 'search', terms: [{ operator: 'sender', operand: '14' }] }, nameOf, personOf), '#narrow/sender/14-Mona-Member');
    assert.equal(
      narrowToHash({ kind: 'search', terms: [{ operator: 'stream', operand: '7' }, { operator: 'is', operand: 'starred' }, { operator: 'has', operand: 'link', negated: true }] }, nameOf),
      '#narrow/stream/7-design-team/is/starred/-has/link',
    );
    // A person whose name is not known yet is written by id alone, which reads back the same.
    assert.equal(narrowToHash({ kind: 'dm', userIds: [99] }, nameOf, personOf), '#narrow/dm/99');
  });

  it('round-trips every narrow form through its URL', () => {
    const narrows: Narrow[] = [
      { kind: 'dm', userIds: [12] },
      { kind: 'dm', userIds: [12, 14] },
      { kind: 'search', terms: [{ operator: 'search', operand: 'v1.2 (beta) 100% "quoted"' }] },
      { kind: 'search', terms: [{ operator: 'sender', operand: '12' }] },
      { kind: 'search', terms: [{ operator: 'sender', operand: 'mark@confab.test' }] },
      { kind: 'search', terms: [{ operator: 'stream', operand: '42' }, { operator: 'topic', operand: 'lunch' }, { operator: 'search', operand: 'tacos' }] },
      { kind: 'search', terms: [{ operator: 'is', operand: 'unread' }, { operator: 'has', operand: 'link' }] },
      { kind: 'search', terms: [{ operator: 'stream', operand: '42' }, { operator: 'topic', operand: 'lunch', negated: true }] },
      { kind: 'search', terms: [{ operator: 'dm-including', operand: '14' }] },
      { kind: 'search', terms: [{ operator: 'near', operand: '120' }, { operator: 'stream', operand: '42' }] },
    ];
    for (const n of narrows) assert.deepEqual(hashToNarrow(narrowToHash(n, nameOf, personOf)), n, JSON.stringify(n));
  });

  it("reads Zulip's own URLs, new and old", () => {
    assert.deepEqual(hashToNarrow('#narrow/dm/12-Mark-Member'), { kind: 'dm', userIds: [12] });
    assert.deepEqual(hashToNarrow('#narrow/pm-with/12,14-group'), { kind: 'dm', userIds: [12, 14] });
    assert.deepEqual(hashToNarrow('#narrow/is/starred'), { kind: 'starred' });
    assert.deepEqual(hashToNarrow('#narrow/search/lunch.20plans'), { kind: 'search', terms: [{ operator: 'search', operand: 'lunch plans' }] });
    assert.deepEqual(hashToNarrow('#narrow/from/12-Mark-Member'), { kind: 'search', terms: [{ operator: 'sender', operand: '12' }] });
    assert.deepEqual(hashToNarrow('#narrow/sender/nobody'), { kind: 'all' });
    // An operator without an operand at the end is left out.
    assert.deepEqual(hashToNarrow('#narrow/stream/42-general/topic'), { kind: 'stream', streamId: 42 });
  });

  it('keeps the simple kinds for the terms that make them', () => {
    assert.deepEqual(termsToNarrow([]), { kind: 'all' });
    assert.deepEqual(termsToNarrow([{ operator: 'channel', operand: '42' }]), { kind: 'stream', streamId: 42 });
    assert.deepEqual(termsToNarrow([{ operator: 'stream', operand: '42' }, { operator: 'subject', operand: 'x' }]), { kind: 'stream', streamId: 42, topic: 'x' });
    assert.deepEqual(termsToNarrow([{ operator: 'is', operand: 'private' }]), { kind: 'dm' });
    assert.deepEqual(termsToNarrow([{ operator: 'is', operand: 'mentioned' }]), { kind: 'mentioned' });
    assert.deepEqual(termsToNarrow([{ operator: 'is', operand: 'starred', negated: true }]), { kind: 'search', terms: [{ operator: 'is', operand: 'starred', negated: true }] });
    // A stream named rather than numbered stays a search the server resolves.
    assert.deepEqual(termsToNarrow([{ operator: 'stream', operand: 'general' }]), { kind: 'search', terms: [{ operator: 'stream', operand: 'general' }] });
  });

  it('gives the API numbers for ids and lists for conversations', () => {
    assert.deepEqual(narrowTerms({ kind: 'dm', userIds: [12, 14] }), [{ operator: 'dm', operand: [12, 14] }]);
    assert.deepEqual(narrowTerms({ kind: 'search', terms: [{ operator: 'sender', operand: '12' }, { operator: 'search', operand: '42' }, { operator: 'has', operand: 'link', negated: true }] }), [
      { operator: 'sender', operand: 12 },
      { operator: 'search', operand: '42' },
      { operator: 'has', operand: 'link', negated: true },
    ]);
    assert.deepEqual(narrowTerms({ kind: 'search', terms: [{ operator: 'sender', operand: 'mark@confab.test' }, { operator: 'dm-including', operand: '14' }] }), [
      { operator: 'sender', operand: 'mark@confab.test' },
      { operator: 'dm-including', operand: 14 },
    ]);
  });

  it("reads a message link's near as where to start, fetched around it", () => {
    const link = hashToNarrow('#narrow/stream/42-general/topic/lunch/near/123');
    assert.deepEqual(link, { kind: 'search', terms: [{ operator: 'stream', operand: '42' }, { operator: 'topic', operand: 'lunch' }, { operator: 'near', operand: '123' }] });
    assert.equal(narrowAnchor(link), 123);
    assert.equal(narrowAnchor({ kind: 'stream', streamId: 42 }), 'newest');
    assert.deepEqual(narrowTerms(link).at(-1), { operator: 'near', operand: '123' });
  });
});
