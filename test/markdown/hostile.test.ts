// Hostile input: whatever a sender (or a linkifier template, or a user's chosen name) puts in,
// the HTML that comes out holds no script, no event handler and no dangerous link.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MarkdownRenderingError, renderMarkdown, renderOrReject } from '../../src/lib/markdown/index.js';
import { ApiError } from '../../src/errors.js';
import { budgetClock, budgetCpuClock, checkBudget } from '../../src/lib/markdown/escape.js';
import type { RenderEnv } from '../../src/lib/markdown/types.js';
import { corpusContext } from './corpus-context.js';
import { cpuStopwatch } from '../support/cpu-time.js';

const HOSTILE = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg/onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x]( javascript:alert(1))',
  '[x](<javascript:alert(1)>)',
  '[x](&#106;avascript:alert(1))',
  '[x](&#x6A;&#x61;vascript:alert(1))',
  '[x](java&#09;script:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](%6a%61vascript:alert(1))',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](data:image/svg+xml,<svg onload=alert(1)>)',
  '[x](file:///etc/passwd)',
  '<javascript:alert(1)>',
  '<data:text/html,<script>alert(1)</script>>',
  'javascript:alert(1)',
  '[x](https://example.com "a\\" onmouseover=\\"alert(1)")',
  '[x](https://example.com/"onmouseover="alert(1))',
  'https://example.com/"onmouseover="alert(1)"',
  'https://example.com/<script>alert(1)</script>',
  'www.example.com/"><script>alert(1)</script>',
  '@**<script>alert(1)</script>**',
  '@**"onmouseover="alert(1)**',
  '@*"><img src=x onerror=alert(1)>*',
  '#**"><script>alert(1)</script>**',
  '#**Denmark>"><img src=x onerror=alert(1)>**',
  '#**Evil "quoted" <img src=x onerror=alert(1)**',
  `@**<b>"Evil" & 'Co'</b>**`,
  '@*a"<b>*',
  ':"onmouseover="alert(1):',
  '<time:"><script>alert(1)</script>>',
  '<time:1" onmouseover="alert(1)>',
  '```"><script>alert(1)</script>\ncode\n```',
  '```spoiler <script>alert(1)</script>\nx\n```',
  '```math\n\\href{javascript:alert(1)}{click}\n```',
  '$$\\href{javascript:alert(1)}{click}$$',
  '$$\\htmlClass{x" onmouseover="alert(1)}{y}$$',
  '$$\\includegraphics{javascript:alert(1)}$$',
  'EVIL-jsx',
  'EVIL-quote',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '\\<script\\>alert(1)\\</script\\>',
  '`<script>alert(1)</script>`',
  '> <script>alert(1)</script>',
  '- <img src=x onerror=alert(1)>',
  '| <script> | x |\n|---|---|\n| <img onerror=alert(1)> | y |',
];

function assertInert(html: string) {
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<(?:img|svg|iframe|object|embed|math[^>]*href)/i);
  // An event-handler attribute can only appear inside a tag: look at tags, not escaped text.
  for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) {
    // Attribute values are quoted and their quotes escaped, so what is outside quotes are names.
    assert.doesNotMatch(tag.replace(/"[^"]*"/g, '""'), /\son\w+\s*=/i, tag);
    for (const [, url] of tag.matchAll(/\s(?:href|src|action|xlink:href)="([^"]*)"/gi)) {
      const decoded = url!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
      assert.match(decoded, /^(?:https?:|mailto:|\/|#|[^:]*$)/i, `unsafe link ${url}`);
    }
  }
}

describe('hostile Markdown', () => {
  for (const input of HOSTILE) {
    it(`is inert: ${JSON.stringify(input)}`, () => {
      assertInert(renderMarkdown(input, corpusContext).html);
      assertInert(renderMarkdown(input).html);
    });
  }

  it('escapes names with quotes and angle brackets in mentions and stream links', () => {
    assert.equal(
      renderMarkdown(`@**<b>"Evil" & 'Co'</b>**`, corpusContext).html,
      `<p><span class="user-mention" data-user-id="14">@&lt;b&gt;"Evil" &amp; 'Co'&lt;/b&gt;</span></p>`,
    );
    assert.equal(
      renderMarkdown('@*a"<b>*', corpusContext).html,
      '<p><span class="user-group-mention" data-user-group-id="5">@a"&lt;b&gt;</span></p>',
    );
    assert.equal(
      renderMarkdown('#**Evil "quoted" <img src=x onerror=alert(1)**', corpusContext).html,
      '<p><a class="stream" data-stream-id="8" href="/#narrow/channel/8-Evil-.22quoted.22-.3Cimg-src.3Dx-onerror.3Dalert.281.29">' +
        '#Evil "quoted" &lt;img src=x onerror=alert(1)</a></p>',
    );
  });

  it('escapes linkifier URLs and drops ones with unsafe schemes', () => {
    assert.equal(
      renderMarkdown('EVIL-quote', corpusContext).html,
      '<p><a href="https://x.example/&quot;onmouseover=&quot;alert(1)&quot;&lt;quote&gt;">EVIL-quote</a></p>',
    );
    assert.equal(renderMarkdown('EVIL-jsx', corpusContext).html, '<p>EVIL-jsx</p>');
  });
});

describe('rendering budget', () => {
  it('finishes deeply nested quotes and lists quickly', () => {
    for (const input of ['> '.repeat(5000) + 'deep', '- '.repeat(3000) + 'deep', '['.repeat(5000) + 'x' + ']'.repeat(5000), '*'.repeat(10000), '**a'.repeat(3000), '`'.repeat(9999), '$$'.repeat(4999)]
      .concat(['```quote\n'.repeat(3000), '```spoiler x\n'.repeat(3000), '```quote\nx\n'.repeat(2000), '@**'.repeat(3000), '#**'.repeat(3000)])
      .concat(['<time:'.repeat(1500), ':smile'.repeat(1500), 'a.com'.repeat(2000), 'http://'.repeat(1400), '- a\n'.repeat(2500)])) {
      const cpuMs = cpuStopwatch();
      // Either rendered or stopped by the render budget; never left running.
      try {
        renderMarkdown(input, corpusContext);
      } catch (error) {
        assert.ok(error instanceof MarkdownRenderingError && error.message === 'Rendering took too long', String(error));
      }
      assert.ok(cpuMs() < 2000, `took ${cpuMs()} ms of CPU on ${input.slice(0, 20)}`);
    }
  });

  it('finishes a large table of mentions', () => {
    const row = `| ${Array.from({ length: 10 }, () => '@**King Hamlet** @*support* #**Denmark**').join(' | ')} |\n`;
    const header = `| ${Array.from({ length: 10 }, (_, i) => `h${i}`).join(' | ')} |\n|${'---|'.repeat(10)}\n`;
    const result = renderMarkdown(header + row.repeat(20), corpusContext);
    assert.equal((result.html.match(/class="user-mention"/g) ?? []).length, 200);
    assert.deepEqual([...result.mentionedUserIds], [10]);
  });

  it('stops a render that overruns its time limit with a clear error', () => {
    const input = Array.from({ length: 2000 }, (_, i) => `line ${i} @**King Hamlet** #**Denmark**`).join('\n\n');
    assert.throws(() => renderMarkdown(input, { ...corpusContext, timeLimitMs: -1 }), (e: unknown) => {
      assert.ok(e instanceof MarkdownRenderingError);
      assert.equal(e.message, 'Rendering took too long');
      return true;
    });
    assert.throws(() => renderOrReject(input, { ...corpusContext, timeLimitMs: -1 }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.message, 'Unable to render message');
      return true;
    });
  });

  it('stops on CPU time spent, not on time spent waiting for a busy machine', () => {
    const env = (cpuSpentMs: number) =>
      ({ deadline: budgetClock() - 1000, budgetMs: 250, cpuStart: budgetCpuClock() - cpuSpentMs }) as unknown as RenderEnv;
    // Past the wall-clock deadline after 100 ms of CPU: the rest of the budget becomes the new deadline.
    const waited = env(100);
    checkBudget(waited);
    assert.ok(waited.deadline > budgetClock() + 100 && waited.deadline <= budgetClock() + 150, String(waited.deadline - budgetClock()));
    assert.throws(() => checkBudget(env(260)), { message: 'Rendering took too long' });
  });

  it('refuses input beyond the size cap', () => {
    assert.throws(() => renderMarkdown('x'.repeat(100_001)), { message: 'Content exceeds 100000 characters' });
  });
});
