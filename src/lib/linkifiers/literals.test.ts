import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RE2JS } from 're2js';
import { literalPrefix, requiredLiterals } from './literals.js';

describe('requiredLiterals', () => {
  const cases: Array<[string, string[]]> = [
    ['#(?P<id>[0-9]{2,8})', ['#']],
    ['ZUL-(?P<id>[0-9]+)', ['ZUL-']],
    ['(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', ['/', '#']],
    ['[A-Z]{2,}-(?P<id>[0-9]+)', ['-']],
    ['RFC ?(?P<n>[0-9]+)', ['RFC']],
    ['colou?r', ['colo', 'r']],
    ['ab+c', ['a', 'b', 'c']],
    ['ab{0,3}c', ['a', 'c']],
    ['x{2}y', ['x', 'y']],
    ['a{b', ['a{b']],
    ['issue\\.(?P<n>\\d+)', ['issue.']],
    ['\\pL+foo\\p{Greek}bar\\x{41}baz', ['foo', 'bar', 'baz']],
    ['[]a]bc[^]x]d', ['bc', 'd']],
    ['[[:alpha:]]z', ['z']],
    ['^T(?P<n>[0-9]{4,})$', ['T']],
    ['😀+x', ['😀', 'x']],
    ['a|b', []],
    ['(?i)bug', []],
    ['pre(?i:fix)', []],
    ['\\Qa.b\\E', []],
    ['(a|b)c', ['c']],
  ];
  for (const [pattern, expected] of cases) {
    it(pattern, () => assert.deepEqual(requiredLiterals(pattern), expected));
  }

  it('never names a literal that a match lacks', () => {
    const samples: Array<[string, string]> = [
      ['colou?r', 'color'],
      ['ab{0,3}c', 'ac'],
      ['x*#y', '#y'],
      ['[A-Z]{2,}-\\d+', 'AB-12'],
      ['a.?b', 'ab'],
    ];
    for (const [pattern, text] of samples) {
      assert.ok(RE2JS.compile(pattern).matcher(text).find());
      for (const literal of requiredLiterals(pattern)) assert.ok(text.includes(literal), `${pattern}: ${literal}`);
    }
  });
});

describe('literalPrefix', () => {
  const cases: Array<[string, string]> = [
    ['r(?P<rev>[0-9a-f]{7,40})', 'r'],
    ['ZUL-(?P<id>[0-9]+)', 'ZUL-'],
    ['colou?r', 'colo'],
    ['a+b', ''],
    ['[A-Z]+-1', ''],
    ['\\#(?P<n>\\d+)', '#'],
    ['plain', 'plain'],
    ['^T1', ''],
    ['ab|cd', ''],
    ['(?i)zul', ''],
    ['', ''],
  ];
  for (const [pattern, expected] of cases) it(pattern, () => assert.equal(literalPrefix(pattern), expected));
});
