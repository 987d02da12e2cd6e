import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { highlightHtml, matchesSearch, parseSearchQuery, searchHighlights } from './search.js';

describe('search queries', () => {
  it('keeps words, drops stop words and reads quoted phrases', () => {
    assert.deepEqual(parseSearchQuery(['The Deploy of "big data"', 'tonight']), {
      text: 'The Deploy of "big data" tonight',
      words: ['deploy', 'big', 'data', 'tonight'],
      phrases: ['big data'],
    });
  });

  it('folds case and diacritics', () => {
    assert.deepEqual(parseSearchQuery(['Café ÉTÉ']).words, ['cafe', 'ete']);
  });

  it('matches every word by its stem, in topic or content', () => {
    const query = parseSearchQuery(['deploying databases']);
    assert.equal(matchesSearch(query, 'Database', 'we deployed it'), true);
    assert.equal(matchesSearch(query, 'release', 'we deployed it'), false);
    assert.equal(matchesSearch(parseSearchQuery(['the']), 'the', 'the'), false);
  });

  it('needs quoted phrases verbatim, ignoring case', () => {
    const query = parseSearchQuery(['"Big Data"']);
    assert.equal(matchesSearch(query, '', 'about big data today'), true);
    assert.equal(matchesSearch(query, '', 'data is big'), false);
  });
});

describe('search highlights', () => {
  it('wraps matching words, not tags or entities', () => {
    const query = parseSearchQuery(['deploy amp p']);
    assert.equal(
      highlightHtml('<p>Deploying &amp; <a href="https://deploy.test">deploys</a></p>', query),
      '<p><span class="highlight">Deploying</span> &amp; <a href="https://deploy.test"><span class="highlight">deploys</span></a></p>',
    );
  });

  it('escapes the topic before highlighting it', () => {
    assert.deepEqual(searchHighlights(parseSearchQuery(['cats']), '<p>no match</p>', 'Cats & <dogs>'), {
      match_content: '<p>no match</p>',
      match_subject: '<span class="highlight">Cats</span> &amp; &lt;dogs&gt;',
    });
  });
});
