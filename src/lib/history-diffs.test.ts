import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DiffCache, historyDiffer } from './history-diffs.js';
import { highlightHtmlDifferences } from './html-diff.js';

const words = (w: string, n: number) => `<p>${Array.from({ length: n }, () => w).join(' ')}</p>`;

describe('historyDiffer', () => {
  it('shares one budget among the diffs of a request, leaving the rest unmarked', () => {
    const budget = { cells: 25 };
    const diff = historyDiffer(new DiffCache(), budget);
    assert.equal(diff(words('a', 4), words('b', 4)), highlightHtmlDifferences(words('a', 4), words('b', 4)));
    assert.equal(budget.cells, 9);
    assert.equal(diff(words('c', 4), words('d', 4)), `<div>${words('d', 4)}</div>`);
    assert.equal(budget.cells, 9);
    assert.equal(diff(words('c', 3), words('d', 3)), highlightHtmlDifferences(words('c', 3), words('d', 3)));
    assert.equal(budget.cells, 0);
  });

  it('remembers each highlighted diff, so a repeat costs no budget', () => {
    const cache = new DiffCache();
    const first = historyDiffer(cache, { cells: 16 });
    const marked = first(words('a', 4), words('b', 4));
    assert.equal(cache.size, 1);
    const budget = { cells: 0 };
    const repeat = historyDiffer(cache, budget);
    assert.equal(repeat(words('a', 4), words('b', 4)), marked);
    // Only the two renderings make the key: another pair misses, and an unmarked answer is not kept.
    assert.equal(repeat(words('a', 4), words('c', 4)), `<div>${words('c', 4)}</div>`);
    assert.equal(repeat(`${words('a', 4)}x`, words('b', 4)), `<div>${words('b', 4)}</div>`);
    assert.equal(cache.size, 1);
  });

  it('keeps the cache within its size, forgetting the oldest diffs first', () => {
    const cache = new DiffCache(10);
    cache.set('one', '1234');
    cache.set('two', '5678');
    cache.set('three', '90');
    assert.deepEqual([cache.get('one'), cache.get('two'), cache.get('three')], ['1234', '5678', '90']);
    cache.set('four', 'abc');
    assert.deepEqual([cache.get('one'), cache.get('two'), cache.get('four')], [undefined, '5678', 'abc']);
    cache.set('huge', 'x'.repeat(11));
    assert.equal(cache.get('huge'), undefined);
    assert.equal(cache.size, 3);
  });
});
