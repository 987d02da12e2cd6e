// Run by lazy-loading.test.ts in a fresh process (test files share theirs): imports the app, then
// renders step by step, printing after each step which of the lazily loaded files are in memory.
import { createRequire } from 'node:module';
import '../../src/app.js';
import { renderMarkdown } from '../../src/lib/markdown/index.js';

const FILES = {
  highlighter: 'highlight.js/lib/core.js',
  python: 'highlight.js/lib/languages/python.js',
  rust: 'highlight.js/lib/languages/rust.js',
  allGrammars: 'highlight.js/lib/index.js',
  emojiTable: 'emoji-table.json',
};

const steps: Record<string, Record<string, boolean>> = {};
function note(step: string): void {
  const paths = Object.keys(createRequire(import.meta.url).cache);
  steps[step] = Object.fromEntries(Object.entries(FILES).map(([name, file]) => [name, paths.some((p) => p.includes(file))]));
}

note('started');
renderMarkdown('**bold** and `code`\n```\nplain block\n```\n```nosuchlang\nx\n```');
note('plain');
renderMarkdown('```python\nx = 1\n```');
note('python');
renderMarkdown(':smile:');
note('emoji');
process.stdout.write(JSON.stringify(steps));
