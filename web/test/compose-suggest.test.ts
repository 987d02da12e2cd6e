// Suggestions while typing: the token at the caret, the candidates, and the text once one is picked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applySuggestion, messageToken, recipientToken, type Sources, suggestionsFor } from '../src/compose-suggest.js';

const sources: Sources = {
  people: [
    { user_id: 10, full_name: 'Mark Member', email: 'mark@confab.test' },
    { user_id: 11, full_name: 'Mona Member', email: 'mona@confab.test' },
    { user_id: 12, full_name: 'Olivia Owner', email: 'olivia@confab.test' },
  ],
  groups: [{ id: 1, name: 'moderators-team' }],
  streams: [
    { stream_id: 4, name: 'general' },
    { stream_id: 5, name: 'design' },
  ],
  topics: ['lunch plans', 'launch'],
  emoji: ['smile', 'smiley', 'tada', 'grinning_face_with_smiling_eyes'],
  me: 10,
};

describe('compose suggestions', () => {
  it('finds the token before the caret', () => {
    assert.deepEqual(messageToken('hi @mo', 6), { kind: 'mention', start: 3, query: 'mo' });
    assert.deepEqual(messageToken('@**Mona Me', 10), { kind: 'mention', start: 0, query: 'Mona Me' });
    assert.deepEqual(messageToken('see #gen', 8), { kind: 'stream', start: 4, query: 'gen' });
    assert.deepEqual(messageToken('see #**general>lun', 18), { kind: 'topic', start: 4, stream: 'general', query: 'lun' });
    assert.deepEqual(messageToken('yay :ta', 7), { kind: 'emoji', start: 4, query: 'ta' });
    // Not inside words, not for a single emoji letter, not past a newline.
    assert.equal(messageToken('mail@mona', 9), null);
    assert.equal(messageToken('10:3', 4), null);
    assert.equal(messageToken('@mo\nx', 5), null);
    assert.deepEqual(messageToken('@mo and more', 3), { kind: 'mention', start: 0, query: 'mo' });
    assert.deepEqual(recipientToken('mark@confab.test, mo', 20), { kind: 'recipient', start: 18, query: 'mo' });
  });

  it('suggests people and groups for a mention, best matches first', () => {
    const found = suggestionsFor({ kind: 'mention', start: 0, query: 'mo' }, sources);
    assert.deepEqual(found.map((s) => s.text), ['@**Mona Member** ', '@*moderators-team* ']);
    // A later word counts, after matches at the start.
    assert.deepEqual(suggestionsFor({ kind: 'mention', start: 0, query: 'mem' }, sources).map((s) => s.label), ['Mark Member', 'Mona Member']);
  });

  it('suggests streams, topics and emoji in their Markdown', () => {
    assert.deepEqual(suggestionsFor({ kind: 'stream', start: 0, query: 'ge' }, sources), [{ label: '#general', text: '#**general** ' }]);
    assert.deepEqual(suggestionsFor({ kind: 'topic', start: 0, stream: 'general', query: 'l' }, sources).map((s) => s.text), ['#**general>launch** ', '#**general>lunch plans** ']);
    assert.deepEqual(suggestionsFor({ kind: 'emoji', start: 0, query: 'smil' }, sources).map((s) => s.text), [':smile: ', ':smiley: ', ':grinning_face_with_smiling_eyes: ']);
  });

  it('suggests recipients not yet in "To", never me', () => {
    assert.deepEqual(suggestionsFor({ kind: 'recipient', start: 0, query: 'm' }, sources).map((s) => s.text), ['mona@confab.test, ']);
    assert.deepEqual(suggestionsFor({ kind: 'recipient', start: 0, query: '' }, sources, ['mona@confab.test']).map((s) => s.label), ['Olivia Owner']);
  });

  it('replaces the token with the pick and puts the caret after it', () => {
    const text = 'Ask @mo about it';
    const token = messageToken(text, 7)!;
    assert.deepEqual(applySuggestion(text, 7, token, { label: 'Mona', text: '@**Mona Member** ' }), { text: 'Ask @**Mona Member** about it', caret: 20 });
    assert.deepEqual(applySuggestion('#gen', 4, messageToken('#gen', 4)!, { label: '#general', text: '#**general** ' }), { text: '#**general** ', caret: 13 });
  });
});
