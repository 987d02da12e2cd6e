// Fenced code in a language we know is coloured with Pygments' class names, in the reference's
// codehilite shape; anything else stays plain. Either way the code's text is escaped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_HIGHLIGHTED_LENGTH } from './highlight.js';
import { renderMarkdown } from './index.js';

const html = (source: string) => renderMarkdown(source).html;
const block = (language: string | null, code: string) =>
  `<div class="codehilite"${language === null ? '' : ` data-code-language="${language}"`}><pre><span></span><code>${code}</code></pre></div>`;
const span = (cls: string, text: string) => `<span class="${cls}">${text}</span>`;

// The reference's own test case (codeblock_hilite_python in its markdown_test_cases.json).
const SPEAK =
  `${span('k', 'def')} ${span('nf', 'speak')}${span('p', '(')}${span('bp', 'self')}${span('p', '):')}\n` +
  `    ${span('n', 'x')} ${span('o', '=')} ${span('mi', '1')}\n`;

describe('highlighted code blocks', () => {
  it('colours Python exactly as the reference does', () => {
    assert.equal(html('Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~'), `<p>Hamlet said:</p>\n${block('Python', SPEAK)}`);
  });

  it('shows the canonical name for an alias, and matches names without regard to case', () => {
    assert.equal(html('``` py2\ndef speak(self):\n    x = 1\n```'), block('Python 2.x', SPEAK));
    assert.equal(html('```PY\ndef speak(self):\n    x = 1\n```'), block('Python', SPEAK));
  });

  it('leaves an unknown language plain, under the name as typed', () => {
    assert.equal(html('``` inventedlanguage\ndef speak(self):\n    x = 1\n```'), block('inventedlanguage', 'def speak(self):\n    x = 1\n'));
    assert.equal(html('```text\nif x: pass\n```'), block('Text only', 'if x: pass\n'));
    assert.equal(html('```\nif x: pass\n```'), block(null, 'if x: pass\n'));
  });

  it('colours JavaScript keywords, strings, numbers, comments and operators', () => {
    assert.equal(
      html("```js\nconst a = 'x'; // note\nlet b = 0x1f + 1.5;\n```"),
      block(
        'JavaScript',
        `${span('kd', 'const')} ${span('nx', 'a')} ${span('o', '=')} ${span('s1', '&#39;x&#39;')}${span('p', ';')} ${span('c1', '// note')}\n` +
          `${span('kd', 'let')} ${span('nx', 'b')} ${span('o', '=')} ${span('mh', '0x1f')} ${span('o', '+')} ${span('mf', '1.5')}${span('p', ';')}\n`,
      ),
    );
  });

  it('colours C, with its preprocessor lines', () => {
    assert.equal(
      html('```c\n#include <stdio.h>\nint main(void) { return 0; }\n```'),
      block(
        'C',
        `${span('cp', '#include ')}${span('cpf', '&lt;stdio.h&gt;')}\n` +
          `${span('kt', 'int')} ${span('nf', 'main')}${span('p', '(')}${span('kt', 'void')}${span('p', ')')} ${span('p', '{')} ${span('k', 'return')} ${span('mi', '0')}${span('p', ';')} ${span('p', '}')}\n`,
      ),
    );
  });

  it('colours JSON keys, values and punctuation', () => {
    assert.equal(
      html('```json\n{"a": [1, "x", true]}\n```'),
      block('JSON', `${span('p', '{')}${span('nt', '&quot;a&quot;')}${span('p', ':')} ${span('p', '[')}${span('mi', '1')}${span('p', ',')} ${span('s2', '&quot;x&quot;')}${span('p', ',')} ${span('kc', 'true')}${span('p', ']}')}\n`),
    );
  });

  it('colours diffs by line', () => {
    assert.equal(
      html('```diff\n@@ -1 +1 @@\n-old\n+new\n```'),
      block('Diff', `${span('gu', '@@ -1 +1 @@')}\n${span('gd', '-old')}\n${span('gi', '+new')}\n`),
    );
  });

  it('escapes HTML in code, coloured or not', () => {
    const python = html('```python\nx = "<script>alert(1)</script>"\n```');
    assert.equal(python, block('Python', `${span('n', 'x')} ${span('o', '=')} ${span('s2', '&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;')}\n`));
    const markup = html('```html\n<img src=x onerror="alert(1)">&amp;\n```');
    assert.equal(
      markup,
      block('HTML', `${span('p', '&lt;')}${span('nt', 'img')} ${span('na', 'src')}${span('o', '=')}${span('s', 'x')} ${span('na', 'onerror')}${span('o', '=')}${span('s2', '&quot;alert(1)&quot;')}${span('p', '&gt;')}${span('ni', '&amp;amp;')}\n`),
    );
    assert.equal(html('```nosuchlang\n<b onclick="x">&</b>\n```'), block('nosuchlang', '&lt;b onclick=&quot;x&quot;&gt;&amp;&lt;/b&gt;\n'));
    for (const output of [python, markup]) assert.ok(!/<(?!\/?(?:span|div|pre|code)\b)/.test(output), output);
  });

  it('leaves very long blocks plain', () => {
    const code = 'x = 1\n'.repeat(MAX_HIGHLIGHTED_LENGTH / 6 + 1);
    assert.equal(renderMarkdown(`\`\`\`python\n${code}\`\`\``, { timeLimitMs: 5000 }).html, block('Python', code));
    assert.ok(html(`\`\`\`python\n${'x = 1\n'.repeat(100)}\`\`\``).includes('<span class="mi">1</span>'));
  });

  it('keeps every character of the code, whatever the grammar makes of it', () => {
    const samples = ['```python\n"unterminated\n```', '```js\n/* open comment\n```', '```c\n#if\n```', '```bash\necho $((1+\n```', '```sql\nSELECT \'\n```'];
    for (const source of samples) {
      const text = html(source)
        .replace(/<[^>]*>/g, '')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      assert.equal(text, `${source.split('\n').slice(1, -1).join('\n')}\n`, source);
    }
  });
});
