import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CompiledLinkifier, compileLinkifiers, findLinkifierMatches } from './match.js';
import { topicLinks } from './topic-links.js';

const trac = { id: 1, pattern: '#(?P<id>[0-9]{2,8})', url_template: 'https://trac.example.com/ticket/{id}' };

describe('findLinkifierMatches', () => {
  it('links whole-word matches only', () => {
    const linkifiers = compileLinkifiers([trac]);
    const text = 'see #224, (#33) issue#124 #1124z #5 and "#4567"';
    const found = findLinkifierMatches(text, linkifiers);
    assert.deepEqual(
      found.map((m) => [text.slice(m.start, m.end), m.url]),
      [
        ['#224', 'https://trac.example.com/ticket/224'],
        ['#33', 'https://trac.example.com/ticket/33'],
        ['#4567', 'https://trac.example.com/ticket/4567'],
      ],
    );
  });

  it('finds adjacent matches separated by one character', () => {
    const linkifiers = compileLinkifiers([trac]);
    assert.deepEqual(findLinkifierMatches('#11 #22', linkifiers).map((m) => m.start), [0, 4]);
  });

  it('lets the earlier linkifier win where matches overlap', () => {
    const rows = [
      { id: 7, pattern: 'ZUL-(?P<id>[0-9]+)', url_template: 'https://first.example/{id}' },
      { id: 3, pattern: '(?P<proj>[A-Z]+)-(?P<num>[0-9]+)', url_template: 'https://second.example/{proj}/{num}' },
    ];
    const text = 'ZUL-12 and ABC-9';
    assert.deepEqual(findLinkifierMatches(text, compileLinkifiers(rows)), [
      { start: 0, end: 6, url: 'https://first.example/12' },
      { start: 11, end: 16, url: 'https://second.example/ABC/9' },
    ]);
    assert.deepEqual(findLinkifierMatches(text, compileLinkifiers([...rows].reverse()))[0], {
      start: 0,
      end: 6,
      url: 'https://second.example/ZUL/12',
    });
  });

  it('percent-encodes group values and counts offsets in UTF-16 units', () => {
    const linkifiers = compileLinkifiers([{ id: 1, pattern: 'wiki:(?P<page>\\S+)', url_template: 'https://wiki.example/{page}' }]);
    const text = '😀 wiki:a"b<c>';
    assert.deepEqual(findLinkifierMatches(text, linkifiers), [{ start: 3, end: 14, url: 'https://wiki.example/a%22b%3Cc%3E' }]);
  });

  it('returns nothing without linkifiers or text, and skips empty matches', () => {
    assert.deepEqual(findLinkifierMatches('#123', []), []);
    const linkifiers = compileLinkifiers([{ id: 1, pattern: 'x*', url_template: 'https://x.example/' }]);
    assert.deepEqual(findLinkifierMatches('', linkifiers), []);
    assert.deepEqual(findLinkifierMatches('a b xx', linkifiers), [{ start: 4, end: 6, url: 'https://x.example/' }]);
  });

  it('skips stored patterns that no longer compile', () => {
    assert.equal(compileLinkifiers([{ id: 1, pattern: '(', url_template: 'https://x.example/' }, trac]).length, 1);
  });
});

describe('topicLinks', () => {
  const linkifiers = compileLinkifiers([trac]);

  it('reports linkifier matches and URLs in order of appearance, duplicates kept', () => {
    assert.deepEqual(topicLinks('google.com/x fixes #444 see https://zulip.example/a?b=1, and #444', linkifiers), [
      { text: 'google.com/x', url: 'https://google.com/x' },
      { text: '#444', url: 'https://trac.example.com/ticket/444' },
      { text: 'https://zulip.example/a?b=1', url: 'https://zulip.example/a?b=1' },
      { text: '#444', url: 'https://trac.example.com/ticket/444' },
    ]);
  });

  it('finds URLs without linkifiers, and ignores plain words', () => {
    assert.deepEqual(topicLinks('docs at www.example.org.', []), [{ text: 'www.example.org', url: 'https://www.example.org' }]);
    assert.deepEqual(topicLinks('version 1.2 release', []), []);
    assert.deepEqual(topicLinks('', linkifiers), []);
  });

  it('prefers linkifier matches over overlapping URLs', () => {
    const rows = [{ id: 1, pattern: 'example\\.com/(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }];
    assert.deepEqual(topicLinks('see example.com/42', compileLinkifiers(rows)), [{ text: 'example.com/42', url: 'https://tracker.example/42' }]);
  });
});

describe('the literal and plain-pattern shortcuts', () => {
  /** The rule as stated: only the bounded pattern, searched again from the end of each match. */
  function reference(linkifier: CompiledLinkifier, text: string): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    const matcher = linkifier.bounded.matcher(text);
    let pos = 0;
    while (pos <= text.length && matcher.find(pos)) {
      const start = Number(matcher.start(2));
      const end = Number(matcher.end(2));
      pos = end > pos ? end : pos + 1;
      if (end > start) out.push([start, end]);
    }
    return out;
  }

  it('find exactly what the bounded pattern alone finds', () => {
    const patterns = ['#[0-9]{2,8}', 'foo|foobar', 'fo+|foob', '[a-z]+#[0-9]+', '(?P<a>[a-z]+)/(?P<b>[a-z]*)', '[A-Z]{2,}-[0-9]+', 'a+', 'ab?', '\\bx\\w*', '(?i)zul', '[0-9]+', '^T[0-9]+', 'é+', 'x$', 'a(x|a| )*', '[a-z](x|b|\\s)*l', 'a(( a)*r)?', '(?P<n>[ab]( [ab])*)'];
    const alphabet = ['/', '#', '1', '2', 'a', 'b', 'x', 'A', 'B', '-', ' ', '(', ',', 'f', 'o', 'r', 'T', 'é', '😀', 'Z', 'u', 'l', '.'];
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const pattern of patterns) {
      const [linkifier] = compileLinkifiers([{ id: 1, pattern, url_template: 'https://x.example/' }]);
      for (let n = 0; n < 300; n++) {
        const length = Math.floor(random() * 14);
        const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
        const fast = findLinkifierMatches(text, [linkifier!]).map((m): [number, number] => [m.start, m.end]);
        assert.deepEqual(fast, reference(linkifier!, text), `${pattern} on ${JSON.stringify(text)}`);
      }
    }
  });
});

describe('topicLinks safety', () => {
  it('drops linkifier URLs with unsafe schemes', () => {
    const linkifiers = compileLinkifiers([{ id: 1, pattern: 'x(?P<id>[0-9]+)', url_template: 'javascript:alert({id})' }]);
    assert.deepEqual(topicLinks('x12 and https://ok.example', linkifiers), [{ text: 'https://ok.example', url: 'https://ok.example' }]);
  });
});
