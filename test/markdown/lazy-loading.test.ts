// The emoji table and the highlighter are loaded on first use, not when the server starts: a
// small idle process does not pay for them (each test file runs in its own process).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import '../../src/app.js';
import { renderMarkdown } from '../../src/lib/markdown/index.js';

const loaded = (fragment: string) => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes(fragment));
const HIGHLIGHTER = 'highlight.js/lib/core.js';
const PYTHON_GRAMMAR = 'highlight.js/lib/languages/python.js';
const EMOJI_TABLE = 'emoji-table.json';

describe('lazy loading', () => {
  it('loads neither the highlighter nor the emoji table with the app, nor for plain messages', () => {
    assert.equal(loaded(HIGHLIGHTER), false);
    assert.equal(loaded(EMOJI_TABLE), false);
    renderMarkdown('**bold** and `code`\n```\nplain block\n```\n```nosuchlang\nx\n```');
    assert.equal(loaded(HIGHLIGHTER), false);
    assert.equal(loaded(EMOJI_TABLE), false);
  });

  it('loads the highlighter, and only the grammar asked for, with the first known language', () => {
    renderMarkdown('```python\nx = 1\n```');
    assert.equal(loaded(HIGHLIGHTER), true);
    assert.equal(loaded(PYTHON_GRAMMAR), true);
    assert.equal(loaded('highlight.js/lib/languages/rust.js'), false);
    assert.equal(loaded('highlight.js/lib/index.js'), false);
  });

  it('loads the emoji table with the first emoji', () => {
    renderMarkdown(':smile:');
    assert.equal(loaded(EMOJI_TABLE), true);
  });
});
