// The Markdown corpus: every syntax the dialect supports, input to exact HTML (corpus.json),
// rendered against the small realm in corpus-context.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { renderMarkdown } from '../../src/lib/markdown/index.js';
import { corpusContext } from './corpus-context.js';

interface CorpusCase {
  group: string;
  input: string;
  html: string;
}

const cases = JSON.parse(readFileSync(new URL('./corpus.json', import.meta.url), 'utf8')) as CorpusCase[];

describe('Markdown corpus', () => {
  it('covers every feature with at least 150 cases', () => {
    assert.ok(cases.length >= 150, `only ${cases.length} cases`);
    const groups = new Set(cases.map((c) => c.group));
    for (const group of ['emphasis', 'code blocks', 'links', 'autolinks', 'mentions', 'group mentions', 'stream links', 'emoji', 'spoilers', 'math', 'time', 'me', 'linkifiers', 'quotes', 'lists', 'headings']) {
      assert.ok(groups.has(group), `no ${group} cases`);
    }
  });

  for (const { group, input, html } of cases) {
    it(`${group}: ${JSON.stringify(input)}`, () => assert.equal(renderMarkdown(input, corpusContext).html, html));
  }

  it('renders the same without a context, minus mentions, links to streams and linkifiers', () => {
    assert.equal(renderMarkdown('@**King Hamlet** #**Denmark** #224').html, '<p>@<strong>King Hamlet</strong> #<strong>Denmark</strong> #224</p>');
  });
});
