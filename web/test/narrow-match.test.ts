// Which loaded messages a narrow shows, for the narrows beyond streams and views.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../src/api.js';
import { matchesNarrow } from '../src/model.js';
import { rememberHits } from '../src/narrow-match.js';
import type { Narrow } from '../src/narrow.js';

const ME = 1;
const person = (id: number) => ({ id, email: `u${id}@x.test`, full_name: `U${id}` });
function msg(fields: Partial<Message>): Message {
  return { id: 1, sender_id: 2, sender_full_name: 'U2', sender_email: 'u2@x.test', content: '<p>Tacos at noon</p>', timestamp: 0, type: 'stream', stream_id: 42, subject: 'Lunch', display_recipient: 'general', flags: [], ...fields };
}
const search = (...terms: { operator: string; operand: string; negated?: boolean }[]): Narrow => ({ kind: 'search', terms });

describe('narrow matching', () => {
  it('finds a conversation by its people, with or without oneself named', () => {
    const withTwo = msg({ type: 'private', display_recipient: [person(1), person(2)] });
    const group = msg({ type: 'private', display_recipient: [person(1), person(2), person(3)] });
    const self = msg({ type: 'private', display_recipient: [person(1)] });
    assert.equal(matchesNarrow({ kind: 'dm', userIds: [2] }, withTwo, ME), true);
    assert.equal(matchesNarrow({ kind: 'dm', userIds: [2] }, group, ME), false);
    assert.equal(matchesNarrow({ kind: 'dm', userIds: [2, 3] }, group, ME), true);
    assert.equal(matchesNarrow({ kind: 'dm', userIds: [1] }, self, ME), true);
    assert.equal(matchesNarrow({ kind: 'dm', userIds: [1] }, withTwo, ME), false);
    assert.equal(matchesNarrow({ kind: 'dm' }, group, ME), true);
  });

  it('checks each operator, negation included', () => {
    const m = msg({ content: '<p>See <a href="https://x.test">this</a></p>', flags: ['starred'] });
    assert.equal(matchesNarrow(search({ operator: 'stream', operand: '42' }, { operator: 'topic', operand: 'lunch' }), m, ME), true);
    assert.equal(matchesNarrow(search({ operator: 'sender', operand: '2' }, { operator: 'has', operand: 'link' }), m, ME), true);
    assert.equal(matchesNarrow(search({ operator: 'sender', operand: 'U2@x.test' }), m, ME), true);
    assert.equal(matchesNarrow(search({ operator: 'is', operand: 'starred' }, { operator: 'is', operand: 'unread' }), m, ME), true);
    assert.equal(matchesNarrow(search({ operator: 'has', operand: 'link', negated: true }), m, ME), false);
    assert.equal(matchesNarrow(search({ operator: 'stream', operand: '43' }), m, ME), false);
    assert.equal(matchesNarrow(search({ operator: 'is', operand: 'unread' }), msg({ flags: ['read'] }), ME), false);
    assert.equal(matchesNarrow(search({ operator: 'stream', operand: '42' }, { operator: 'near', operand: '5' }), m, ME), true);
  });

  it("matches words at a word's start, and whatever the server found for the search", () => {
    assert.equal(matchesNarrow(search({ operator: 'search', operand: 'taco NOON' }), msg({}), ME), true);
    assert.equal(matchesNarrow(search({ operator: 'search', operand: 'lunch' }), msg({}), ME), true);
    assert.equal(matchesNarrow(search({ operator: 'search', operand: 'acos' }), msg({}), ME), false);
    const stemmed = search({ operator: 'search', operand: 'tacoes' });
    assert.equal(matchesNarrow(stemmed, msg({ id: 7 }), ME), false);
    rememberHits(stemmed, [7]);
    assert.equal(matchesNarrow(stemmed, msg({ id: 7 }), ME), true);
  });
});
