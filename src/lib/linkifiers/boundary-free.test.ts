import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { neverMatchesBoundary, splitRuns } from './boundary-free.js';

describe('neverMatchesBoundary', () => {
  const free = [
    '#(?P<id>[0-9]{2,8})',
    '(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_.-]+)#(?P<id>[0-9]+)',
    '(?P<key>[A-Z]{2,6})-(?P<num>[0-9]+)',
    'r(?P<rev>[0-9a-f]{7,40})',
    '(?i)zul-\\d+',
    '(?:a|b)\\w*\\.\\#',
    '[[:alnum:]]+!',
    '^T[0-9]+$',
    '[]a]x',
    'a{2}{',
    '\\x{41}',
  ];
  const notFree = [
    'bug (?P<n>[0-9]+)',
    'RFC ?(?P<n>[0-9]+)',
    'a.b',
    '[^a]b',
    '\\S+',
    '\\s',
    '[a-z ]+',
    '[!-~]+',
    'x\\pLy',
    'gh:(?P<u>[a-z]+)',
    'a\\(b',
    '\\x{20}',
    '[[:space:]]',
    '(?=x)',
    'wiki\u00a0page',
  ];
  for (const pattern of free) it(`${pattern} stays between boundaries`, () => assert.equal(neverMatchesBoundary(pattern), true));
  for (const pattern of notFree) it(`${pattern} may match a boundary`, () => assert.equal(neverMatchesBoundary(pattern), false));
});

describe('splitRuns', () => {
  it('splits at whitespace, Unicode spaces, NEL and opening delimiters', () => {
    assert.deepEqual(splitRuns(' a-b\u00a0(c),d:e<f"g\'h\u0085i\u2003j\v.k  '), [
      { start: 1, text: 'a-b' },
      { start: 6, text: 'c)' },
      { start: 9, text: 'd' },
      { start: 11, text: 'e' },
      { start: 13, text: 'f' },
      { start: 15, text: 'g' },
      { start: 17, text: 'h' },
      { start: 19, text: 'i' },
      { start: 21, text: 'j\v.k' },
    ]);
    assert.deepEqual(splitRuns(''), []);
  });
});
