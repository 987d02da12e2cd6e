import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedMap } from '../bounded-map.js';
import { fastAnchoredRegex } from './fast-pattern.js';
import { type CompiledLinkifier, compileLinkifiers, findLinkifierMatches } from './match.js';

describe('fastAnchoredRegex', () => {
  it('takes sequences of characters, classes and unrepeated groups', () => {
    for (const pattern of [
      '#(?P<id>[0-9]{2,8})',
      'RFC ?(?P<num>[0-9]+)',
      '(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_.-]+)#(?P<id>[0-9]+)',
      '(?P<key>[A-Z]{2,6})-(?P<num>\\d+)',
      '(?:PR)x',
      '\\#(?<n>\\w{3})',
      '[]a]b',
    ]) {
      assert.notEqual(fastAnchoredRegex(pattern), null, pattern);
    }
  });

  it('leaves to re2js what backtracking could make slow or what reads differently', () => {
    for (const pattern of [
      'a+a', // a repeat followed by what it consumes
      '[a-z]*[a-c]', // the same through classes
      'x?[xy]', // an optional character the next one also takes
      '(ab)+', // a repeated group
      'a|b', // alternation
      '^#[0-9]+', // anchors
      'a.b', // any character
      '(?i)zul-[0-9]+', // flags
      'wiki:\\S+', // \s and \S read differently
      '\\bx', // word boundaries
      'a+?', // lazy repeats
      '(?P<1x>a)', // a name JavaScript refuses
      'a{2', // a brace that is not a repeat
      '',
    ]) {
      assert.equal(fastAnchoredRegex(pattern), null, pattern);
    }
  });

  it('matches at one position only and needs a non-word character or the end after the match', () => {
    const regex = fastAnchoredRegex('#(?P<id>[0-9]{2,8})')!;
    regex.lastIndex = 4;
    assert.equal(regex.exec('see #224, then')?.groups?.id, '224');
    regex.lastIndex = 3;
    assert.equal(regex.exec('see #224, then'), null);
    regex.lastIndex = 0;
    assert.equal(regex.exec('#224x'), null);
    regex.lastIndex = 0;
    assert.equal(regex.exec('#224é'), null);
  });
});

/** A small random generator, seeded so a failure repeats. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = ['a', 'b', '-', '#', ' ', '/', '\\d', '[a-c]', '[0-9]', '[^a ]', '[a-z0-9_-]', '\\w', 'é', '😀'];
const REPEATS = ['', '', '', '?', '*', '+', '{2}', '{1,3}', '{2,}'];
const TEXT_CHARS = ['a', 'b', 'c', 'A', '0', '1', '9', '-', '#', ' ', ',', '/', 'é', '😀', '\n', '('];

function randomPattern(next: () => number): string {
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  let pattern = '';
  const count = 1 + Math.floor(next() * 4);
  for (let i = 0; i < count; i++) {
    const piece = pick(PIECES) + pick(REPEATS);
    pattern += next() < 0.3 ? `(?P<g${i}>${piece})` : piece;
  }
  return pattern;
}

describe('the native path against re2js', () => {
  it('finds the same matches, groups and URLs on random patterns and texts', () => {
    const next = random(20261123);
    let compared = 0;
    for (let p = 0; p < 400; p++) {
      const pattern = randomPattern(next);
      if (fastAnchoredRegex(pattern) === null) continue;
      const groups = [...pattern.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]);
      const template = `https://x.example/${groups.map((g) => `{${g}}`).join('/')}`;
      const [linkifier] = compileLinkifiers([{ id: 1, pattern, url_template: template }]);
      assert.ok(linkifier?.fast, pattern);
      const slow: CompiledLinkifier = { ...linkifier, fast: null, runMemo: new BoundedMap(100) };
      for (let t = 0; t < 25; t++) {
        const text = Array.from({ length: Math.floor(next() * 24) }, () => TEXT_CHARS[Math.floor(next() * TEXT_CHARS.length)]).join('');
        assert.deepEqual(findLinkifierMatches(text, [linkifier]), findLinkifierMatches(text, [slow]), `${pattern} on ${JSON.stringify(text)}`);
        compared++;
      }
    }
    // Most random patterns qualify; the comparison must have covered a good share of them.
    assert.ok(compared > 2500, `only ${compared} comparisons`);
  });
});
