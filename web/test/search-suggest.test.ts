// The search box's language: Zulip's operators to narrow terms and back, and its suggestions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { termsToNarrow } from '../src/narrow.js';
import { type Directory, parseSearch, suggest, termsToSearch } from '../src/search-suggest.js';

const dir: Directory = {
  meId: 12,
  streams: [
    { stream_id: 7, name: 'design team' },
    { stream_id: 42, name: 'general' },
    { stream_id: 43, name: 'engineering' },
  ],
  people: [
    { user_id: 12, full_name: 'Mark Member', email: 'mark@confab.test' },
    { user_id: 14, full_name: 'Mona Member', email: 'mona@confab.test' },
    { user_id: 20, full_name: 'Olivia Owner', email: 'olivia@confab.test' },
  ],
  topics: (streamId) => (streamId === 42 ? ['lunch plans', 'launch', 'release'] : []),
};

describe('search parsing', () => {
  it('turns operators into terms with ids, and free words into one search term', () => {
    assert.deepEqual(parseSearch('stream:general topic:"lunch plans" tacos sender:Mona@confab.test at noon', dir), [
      { operator: 'stream', operand: '42' },
      { operator: 'topic', operand: 'lunch plans' },
      { operator: 'sender', operand: '14' },
      { operator: 'search', operand: 'tacos at noon' },
    ]);
    assert.deepEqual(parseSearch('dm:mona@confab.test,olivia@confab.test', dir), [{ operator: 'dm', operand: '14,20' }]);
    assert.deepEqual(parseSearch('is:starred -has:link sender:me', dir), [
      { operator: 'is', operand: 'starred' },
      { operator: 'has', operand: 'link', negated: true },
      { operator: 'sender', operand: '12' },
    ]);
    assert.deepEqual(parseSearch('channel:"design team" subject:x from:mark@confab.test pm-with:mona@confab.test', dir), [
      { operator: 'stream', operand: '7' },
      { operator: 'topic', operand: 'x' },
      { operator: 'sender', operand: '12' },
      { operator: 'dm', operand: '14' },
    ]);
  });

  it('keeps what it cannot resolve, and reads unknown operators and empty operands as words', () => {
    assert.deepEqual(parseSearch('stream:nowhere sender:someone@else dm:mona@confab.test,ghost', dir), [
      { operator: 'stream', operand: 'nowhere' },
      { operator: 'sender', operand: 'someone@else' },
      { operator: 'dm', operand: 'mona@confab.test,ghost' },
    ]);
    assert.deepEqual(parseSearch('http://x.test stream: 10:30', dir), [{ operator: 'search', operand: 'http://x.test stream: 10:30' }]);
    assert.deepEqual(parseSearch('   ', dir), []);
  });

  it('narrows to the simple views when the terms are one', () => {
    assert.deepEqual(termsToNarrow(parseSearch('stream:general topic:launch', dir)), { kind: 'stream', streamId: 42, topic: 'launch' });
    assert.deepEqual(termsToNarrow(parseSearch('dm:mona@confab.test', dir)), { kind: 'dm', userIds: [14] });
    assert.deepEqual(termsToNarrow(parseSearch('is:starred', dir)), { kind: 'starred' });
    assert.deepEqual(termsToNarrow(parseSearch('', dir)), { kind: 'all' });
  });

  it('writes terms back as text a person would type, which parses to the same terms', () => {
    const text = 'stream:"design team" topic:"lunch plans" sender:mona@confab.test -is:starred dm:mark@confab.test,olivia@confab.test fish';
    const terms = parseSearch(text, dir);
    assert.equal(termsToSearch(terms, dir), text);
    assert.deepEqual(parseSearch(termsToSearch(terms, dir), dir), terms);
  });
});

describe('search suggestions', () => {
  const queries = (text: string) => suggest(text, dir).map((s) => s.query);

  it('offers the operators in an empty box', () => {
    const all = suggest('', dir);
    assert.deepEqual(all.slice(0, 4).map((s) => s.query), ['stream:', 'topic:', 'sender:', 'dm:']);
    assert.ok(all.some((s) => s.query === 'is:starred ' && s.label === 'Starred messages'));
  });

  it('suggests streams, topics of the stream named, people, and is:/has: values', () => {
    assert.deepEqual(queries('stream:e'), ['stream:engineering ', 'stream:"design team" ', 'stream:general ']);
    assert.deepEqual(queries('stream:ge'), ['stream:general ']);
    assert.deepEqual(queries('stream:des'), ['stream:"design team" ']);
    assert.deepEqual(queries('stream:general topic:la'), ['stream:general topic:"lunch plans" ', 'stream:general topic:launch ']);
    assert.deepEqual(queries('topic:la'), []);
    assert.deepEqual(queries('sender:mo'), ['sender:mona@confab.test ']);
    assert.deepEqual(suggest('sender:mo', dir)[0]!.label, 'Sent by Mona Member');
    assert.deepEqual(queries('dm:mona@confab.test,ol'), ['dm:mona@confab.test,olivia@confab.test ']);
    assert.deepEqual(queries('is:s'), ['is:starred ']);
    assert.deepEqual(queries('-has:l'), ['-has:link ']);
    assert.equal(suggest('-has:l', dir)[0]!.label, 'Exclude: Messages with links');
  });

  it('for a plain word offers the search itself, operators, streams and people', () => {
    assert.deepEqual(queries('tacos st'), ['tacos st ', 'tacos stream:']);
    const mo = suggest('mo', dir);
    assert.equal(mo[0]!.label, 'Search for mo');
    assert.deepEqual(
      mo.slice(1).map((s) => s.query),
      ['dm:mona@confab.test ', 'sender:mona@confab.test '],
    );
    // Any word of a name, or the start of an email; not the middle of one ("st" is in ".test").
    assert.deepEqual(queries('member').slice(1), ['dm:mark@confab.test ', 'sender:mark@confab.test ', 'dm:mona@confab.test ', 'sender:mona@confab.test ']);
    assert.deepEqual(queries('gen').slice(1), ['stream:general ']);
  });

  it('stops at eight suggestions and offers nothing after a finished term', () => {
    const crowd = { ...dir, people: Array.from({ length: 10 }, (_, i) => ({ user_id: 100 + i, full_name: `Pat ${i}`, email: `pat${i}@x.test` })) };
    assert.equal(suggest('pat', crowd).length, 8);
    assert.deepEqual(suggest('stream:general ', dir), []);
  });
});
