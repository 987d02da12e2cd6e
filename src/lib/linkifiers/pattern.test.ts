import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../errors.js';
import { compilePattern } from './pattern.js';
import { templateVariables } from './url-template.js';
import { checkLinkifier, checkPlayground } from './validate.js';

function rejects(work: () => unknown, msg: string) {
  assert.throws(work, (error: unknown) => error instanceof ApiError && error.message === msg && error.code === 'BAD_REQUEST');
}

describe('compilePattern', () => {
  it('accepts Python named groups and lists them in order', () => {
    assert.deepEqual(compilePattern('(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)').groupNames, ['org', 'repo', 'id']);
    assert.deepEqual(compilePattern('#[0-9]+').groupNames, []);
  });

  const bad: Array<[string, string]> = [
    ['(foo', 'Bad regular expression: missing ): (foo'],
    ['[a-', 'Bad regular expression: missing ]: [a-'],
    ['ZUL-(?P<id>\\d++)', 'Bad regular expression: bad repetition operator: ++'],
    ['a{1001}', 'Bad regular expression: bad repetition operator: {1001}'],
    ['*a', 'Bad regular expression: no argument for repetition operator: *'],
    ['(?=x)', 'Bad regular expression: invalid perl operator: (?='],
    ['\\1', 'Bad regular expression: invalid escape sequence: \\1'],
    ['(?P<a>x)(?P<a>y)', 'Bad regular expression: invalid named capture group: a'],
    ['a\\', 'Bad regular expression: trailing \\'],
  ];
  for (const [pattern, msg] of bad) {
    it(`refuses ${pattern}`, () => rejects(() => compilePattern(pattern), msg));
  }
});

describe('templateVariables', () => {
  it('lists variables of every RFC 6570 operator', () => {
    assert.deepEqual(templateVariables('https://example.com/{id}'), ['id']);
    assert.deepEqual(templateVariables('https://x.example/{+path}/{#frag}{?a,b*}{&c:3}{/d}{.e}{;f}'), ['path', 'frag', 'a', 'b', 'c', 'd', 'e', 'f']);
    assert.deepEqual(templateVariables('https://example.com/static'), []);
    assert.deepEqual(templateVariables('https://example.com/%20{x.y}'), ['x.y']);
    assert.deepEqual(templateVariables('https://ex.example/{a}{a}'), ['a']);
  });

  for (const template of ['https://x/{id', 'https://x/id}', 'https://x/{}', 'https://x/{=a}', 'https://x/{a b}', 'https://x/a b',
    'https://x/%zz', 'https://x/{a:0}', 'https://x/{a:10000}', 'https://x/<{a}>', 'https://x/{a,}', 'https://x/{.}', 'https://x/"']) {
    it(`refuses ${JSON.stringify(template)}`, () => assert.equal(templateVariables(template), null));
  }
});

describe('checkLinkifier', () => {
  it('accepts matching groups and variables', () => {
    checkLinkifier('#(?P<id>[0-9]+)', 'https://trac.example.com/ticket/{id}');
    checkLinkifier('[A-Z]{2,}-[0-9]+', 'https://jira.example.com/browse');
  });

  it('reports the reference texts', () => {
    rejects(() => checkLinkifier('', 'https://x.example/'), 'This field cannot be blank.');
    rejects(() => checkLinkifier('#(?P<id>[0-9]+)', ''), 'This field cannot be blank.');
    rejects(() => checkLinkifier('(foo', 'https://x.example/{'), 'Bad regular expression: missing ): (foo');
    rejects(() => checkLinkifier('#(?P<id>[0-9]+)', 'https://x.example/{id'), 'Invalid URL template.');
    rejects(
      () => checkLinkifier('#(?P<id>[0-9]+)', 'https://x.example/{id}/{zed}/{other}'),
      "Group 'other' in URL template is not present in linkifier pattern.",
    );
    rejects(
      () => checkLinkifier('(?P<b>[a-z]+)#(?P<a>[0-9]+)', 'https://x.example/'),
      "Group 'a' in linkifier pattern is not present in URL template.",
    );
  });
});

describe('checkPlayground', () => {
  it('accepts a template with exactly the code variable', () => {
    checkPlayground('Python', 'https://python.example.com?code={code}');
    checkPlayground('c++ / C#, obj-c.v2', 'https://play.example/{#code}');
  });

  it('reports the reference texts', () => {
    rejects(() => checkPlayground('x'.repeat(41), 'https://p.example/{code}'), 'Ensure this value has at most 40 characters (it has 41).');
    rejects(() => checkPlayground('py<thon>', 'https://p.example/{code}'), 'Invalid characters in pygments language');
    rejects(() => checkPlayground('Python', 'https://p.example/{code'), 'Invalid URL template.');
    rejects(() => checkPlayground('Python', 'https://p.example/{snippet}'), 'Missing the required variable "code" in the URL template');
    rejects(() => checkPlayground('Python', 'https://p.example/{code}?v={version}'), '"code" should be the only variable present in the URL template');
  });
});
