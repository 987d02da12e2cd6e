// Renderer benchmark: renders per second of a mixed corpus of ~500-character messages on one core.
// Usage: npm run bench:render [-- --seconds 3]
import { parseArgs } from 'node:util';
import MarkdownIt from 'markdown-it';
import { renderMarkdown, type RenderContext } from '../src/lib/markdown/index.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' } } });
const seconds = Number(values.seconds ?? 3);

const users = new Map(['Iago', 'King Hamlet', 'Othello, the Moor of Venice', 'Cordelia Lear'].map((name, i) => [name.toLowerCase(), { id: i + 10, full_name: name }]));
const context: RenderContext = {
  lookupUser: (name) => users.get(name.toLowerCase()),
  lookupUserGroup: (name) => (name === 'support' ? { id: 3, name: 'support' } : undefined),
  lookupStream: (name) => (name.toLowerCase() === 'denmark' ? { id: 1, name: 'Denmark' } : undefined),
  topicLatestMessageId: () => 1234,
  linkify: (text) => [...text.matchAll(/#([0-9]{2,8})\b/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, url: `https://trac.example.com/ticket/${m[1]}` })),
};

const fragments = [
  'Hey @**King Hamlet**, could you take a look at the deploy? It failed on step three with a timeout.',
  'I think the problem is in `config/settings.py`, where **DEBUG** is still set to *true* on staging.',
  'See https://github.com/zulip/zulip/pull/12345 and the discussion in #**Denmark>deploys** for context.',
  '- first check the logs\n- then restart the worker\n- finally ping @*support* if it still fails',
  '> The build was green yesterday, so something changed overnight.\n\nAgreed :thumbs_up: 🎉',
  '```python\ndef retry(fn, times=3):\n    for _ in range(times):\n        fn()\n```',
  'Meeting moved to <time:1700000000>; ~~Tuesday~~ Wednesday works better for @_**Iago**.',
  'Ticket #4521 tracks this; the fix in #4530 is ready for review by @**Cordelia Lear**.',
  '1. Open [the dashboard](https://grafana.example.com/d/abc)\n2. Filter by `service=api`\n3. Compare p99',
  'Energy is $$E = mc^2$$, nothing new there. @**all** please read before Friday.',
];

function message(seed: number): string {
  let text = '';
  for (let i = seed; text.length < 500; i += 3) text += `${fragments[i % fragments.length]}\n\n`;
  return text.slice(0, 500).trimEnd();
}
const corpus = Array.from({ length: 200 }, (_, i) => message(i));
const meanLength = corpus.reduce((sum, m) => sum + m.length, 0) / corpus.length;

for (let i = 0; i < 2000; i++) renderMarkdown(corpus[i % corpus.length]!, context);
let renders = 0;
let outputBytes = 0;
const cpuStart = process.cpuUsage();
const start = process.hrtime.bigint();
const stopAt = start + BigInt(Math.round(seconds * 1e9));
while (process.hrtime.bigint() < stopAt) {
  for (let i = 0; i < 100; i++) outputBytes += renderMarkdown(corpus[(renders + i) % corpus.length]!, context).html.length;
  renders += 100;
}
const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
const cpu = process.cpuUsage(cpuStart);
// CPU seconds stand in for one dedicated core when the machine is shared.
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
// For scale: plain CommonMark (markdown-it, no chat syntax, no autolinking) on the same corpus.
const plain = new MarkdownIt('commonmark');
const plainStart = process.cpuUsage();
let plainRenders = 0;
while (plainRenders < renders) for (let i = 0; i < 100; i++) plain.render(corpus[plainRenders++ % corpus.length]!);
const plainCpu = process.cpuUsage(plainStart);
const plainPerSecond = Math.round(plainRenders / ((plainCpu.user + plainCpu.system) / 1e6));

console.log(`messages: ${corpus.length} distinct, mean ${meanLength.toFixed(0)} characters`);
console.log(`renders: ${renders} in ${elapsed.toFixed(2)} s`);
console.log(`wall clock: ${Math.round(renders / elapsed)} renders/s`);
console.log(`per CPU second (one core): ${Math.round(renders / cpuSeconds)} renders/s (target >= 20000)`);
console.log(`plain markdown-it on the same corpus: ${plainPerSecond} renders/s per CPU second`);
console.log(`mean CPU per render: ${((cpuSeconds / renders) * 1e6).toFixed(1)} us; mean output ${Math.round(outputBytes / renders)} bytes`);
