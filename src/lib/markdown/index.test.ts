import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeHashComponent } from './stream-links.js';
import { isSafeUrl } from './safe-url.js';
import { escapeHtml, renderMarkdown, type RenderContext } from './index.js';

const context: RenderContext = {
  lookupUser: (name, id) => (name === 'Iago' || id === 11 ? { id: 11, full_name: 'Iago' } : name === 'Cordelia' ? { id: 12, full_name: 'Cordelia' } : undefined),
  lookupUserGroup: (name) => (name === 'support' ? { id: 3, name: 'support' } : undefined),
};

describe('renderMarkdown', () => {
  const cases: Array<[string, string]> = [
    ['test', '<p>test</p>'],
    ['line one\nline two', '<p>line one<br>\nline two</p>'],
    ['first\n\nsecond', '<p>first</p>\n<p>second</p>'],
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['"quoted" & \'single\'', '<p>"quoted" &amp; \'single\'</p>'],
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
    assert.equal(renderMarkdown('[a](https://example.com/page)').hasImage, false);
    assert.equal(renderMarkdown('/me').isMeMessage, false);
    assert.equal(renderMarkdown('`/me` waves').isMeMessage, false);
  });

  it('collects who is mentioned, leaving out silent mentions', () => {
    const result = renderMarkdown('@**Iago** @_**Cordelia** @*support* @_*support* @**nobody**', context);
    assert.deepEqual([...result.mentionedUserIds], [11]);
    assert.deepEqual([...result.mentionedGroupIds], [3]);
    assert.equal(result.streamWildcard, false);
    assert.equal(result.topicWildcard, false);
  });

  it('tells stream wildcards from topic wildcards, and silent ones from loud ones', () => {
    assert.equal(renderMarkdown('@**everyone**').streamWildcard, true);
    assert.equal(renderMarkdown('@**channel**').topicWildcard, false);
    assert.equal(renderMarkdown('@**topic**').topicWildcard, true);
    assert.equal(renderMarkdown('@_**all**').streamWildcard, false);
    assert.equal(renderMarkdown('@_**topic**').topicWildcard, false);
    assert.equal(renderMarkdown('`@**all**`').streamWildcard, false);
  });

  it("uses the realm's default code block language only for blocks that name none", () => {
    const realm: RenderContext = { defaultCodeLanguage: 'python' };
    assert.equal(
      renderMarkdown('```\nx = 1\n```', realm).html,
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
    );
    assert.equal(
      renderMarkdown('```js\nx\n```', realm).html,
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code><span class="nx">x</span>\n</code></pre></div>',
    );
  });

  it("writes links into the realm's own app relative", () => {
    const realm: RenderContext = { realmUrl: 'https://chat.example.com' };
    assert.equal(
      renderMarkdown('https://chat.example.com/#narrow/channel/1-Denmark', realm).html,
      '<p><a href="#narrow/channel/1-Denmark">https://chat.example.com/#narrow/channel/1-Denmark</a></p>',
    );
    assert.equal(renderMarkdown('[up](https://chat.example.com/user_uploads/2/a.txt)', realm).html, '<p><a href="user_uploads/2/a.txt">up</a></p>');
    assert.equal(renderMarkdown('https://chat.example.com/help', realm).html, '<p><a href="https://chat.example.com/help">https://chat.example.com/help</a></p>');
  });

  it('escapes for attributes', () => assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;'));
});

describe('isSafeUrl', () => {
  for (const url of ['https://example.com', 'http://x', 'mailto:a@b.c', '/relative', '#narrow', 'page?a=b:c', '//example.com/x']) {
    it(`allows ${url}`, () => assert.equal(isSafeUrl(url), true));
  }
  for (const url of ['javascript:alert(1)', 'JAVASCRIPT:x', ' javascript:x', 'java\tscript:x', 'java%09script:x', '%6Aavascript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc', 'ftp://x']) {
    it(`refuses ${JSON.stringify(url)}`, () => assert.equal(isSafeUrl(url), false));
  }
});

describe('encodeHashComponent', () => {
  it('percent-encodes and writes % as .', () => {
    assert.equal(encodeHashComponent('some topic'), 'some.20topic');
    assert.equal(encodeHashComponent("a.b!c'(d)*~_-"), "a.2Eb.21c.27.28d.29*~_-");
    assert.equal(encodeHashComponent('日本'), '.E6.97.A5.E6.9C.AC');
  });
});
