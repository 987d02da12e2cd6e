import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { highlightHtmlDifferences } from './html-diff.js';

describe('highlightHtmlDifferences', () => {
  it('marks inserted and removed words of the newer rendering', () => {
    assert.equal(
      highlightHtmlDifferences('<p>the quick fox</p>', '<p>the slow brown fox</p>'),
      '<div><p>the <span class="highlight_text_deleted">quick </span><span class="highlight_text_inserted">slow brown </span>fox</p></div>',
    );
  });

  it('never lets a mark cross a tag, and keeps removed words at the end', () => {
    assert.equal(
      highlightHtmlDifferences('<p>a b</p>', '<p>a <strong>c</strong></p>'),
      '<div><p>a <strong><span class="highlight_text_deleted">b</span><span class="highlight_text_inserted">c</span></strong></p></div>',
    );
    assert.equal(highlightHtmlDifferences('<p>one two</p>', '<p>one </p>'), '<div><p>one </p><span class="highlight_text_deleted">two</span></div>');
    assert.equal(highlightHtmlDifferences('<p>same</p>', '<p>same</p>'), '<div><p>same</p></div>');
  });
});
