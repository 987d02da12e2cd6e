// npx tsx bench/profile-summary.ts FILE.cpuprofile [--top N]
// Where a V8 CPU profile (node --cpu-prof, or npm run bench -- --cpu-prof DIR) spends its time:
// self time by function and by package or source folder.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function area(url: string): string {
  if (url === '') return '(native / idle / gc)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return 'node core';
  const src = /\/(src|dist\/src)\/(.+)\/[^/]+$/.exec(url);
  return src ? `src/${src[2]}` : url.replace(/^file:\/\//, '');
}

function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string' } } });
  const file = positionals[0];
  if (!file) throw new Error('usage: npx tsx bench/profile-summary.ts FILE.cpuprofile [--top N]');
  const top = Number(values.top ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfTime = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
    total += delta;
  });
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + time);
    byArea.set(area(url), (byArea.get(area(url)) ?? 0) + time);
  }
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [name, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${(time / 1000).toFixed(0).padStart(7)} ms  ${name}`);
    }
  };
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
  print('self time by package / source folder', byArea);
  print('self time by function', byFunction);
}

main();
