import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderMarkdown } from './index.js';

describe('renderMarkdown (minimal renderer)', () => {
  const cases: Array<[string, string]> = [
    ['test', '<p>test</p>'],
    ['line one\nline two', '<p>line one<br>\nline two</p>'],
    ['first\n\nsecond', '<p>first</p>\n<p>second</p>'],
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['"quoted" & \'single\'', '<p>&quot;quoted&quot; &amp; &#39;single&#39;</p>'],
    ['\n\nleading', '<p>leading</p>'],
  ];
  for (const [input, html] of cases) {
    it(`renders ${JSON.stringify(input)}`, () => assert.equal(renderMarkdown(input).html, html));
  }

  it('notes links, images and /me', () => {
    const result = renderMarkdown('/me looks at https://example.com/cat.png');
    assert.equal(result.hasLink, true);
    assert.equal(result.hasImage, true);
    assert.equal(result.isMeMessage, true);
    assert.equal(renderMarkdown('plain').hasLink, false);
  });
});
