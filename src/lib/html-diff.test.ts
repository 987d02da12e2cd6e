import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { highlightHtmlDifferences, unmarkedHtmlDiff } from './html-diff.js';

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

  it('spends only the words between the shared start and end of the budget', () => {
    const budget = { cells: 10 };
    // "quick" against "slow brown": one old word by two new ones.
    assert.notEqual(highlightHtmlDifferences('<p>the quick fox</p>', '<p>the slow brown fox</p>', budget), null);
    assert.equal(budget.cells, 8);
    assert.equal(highlightHtmlDifferences('<p>same</p>', '<p>same</p>', budget), '<div><p>same</p></div>');
    assert.equal(budget.cells, 8);
    const words = (w: string, n: number) => `<p>${Array.from({ length: n }, () => w).join(' ')}</p>`;
    assert.equal(highlightHtmlDifferences(words('a', 3), words('b', 3), budget), null);
    assert.equal(budget.cells, 8, 'a diff past the budget spends nothing');
    assert.notEqual(highlightHtmlDifferences(words('a', 2), words('b', 4), budget), null);
    assert.equal(budget.cells, 0);
  });

  it('gives up on a diff past its own bound when the caller sets no budget', () => {
    const words = (w: string) => `<p>${Array.from({ length: 2001 }, () => w).join(' ')}</p>`;
    assert.equal(highlightHtmlDifferences(words('a'), words('b')), null);
    assert.equal(unmarkedHtmlDiff(words('b')), `<div>${words('b')}</div>`);
  });
});
