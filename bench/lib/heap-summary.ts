// Sums a V8 heap snapshot (node:v8 writeHeapSnapshot) by what its objects are: per node type
// (code, strings, arrays, ...), per constructor for objects and closures, and the biggest single
// objects, such as the source text of each loaded script. Self sizes only: each byte counts once.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export interface HeapGroup {
  name: string;
  bytes: number;
  count: number;
}

export interface HeapSummary {
  totalBytes: number;
  byType: HeapGroup[];
  byConstructor: HeapGroup[];
  biggest: HeapGroup[];
}

/** Types whose names are object or function names; for the others the name is a value (a string's text, say). */
const NAMED_TYPES = new Set(['object', 'closure', 'native', 'synthetic']);

const short = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text).replace(/\s+/g, ' ');

export function summariseHeapSnapshot(path: string, top = 15): HeapSummary {
  const data = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = data.snapshot.meta.node_fields;
  const types = data.snapshot.meta.node_types[0];
  const stride = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const byType = new Map<string, HeapGroup>();
  const byConstructor = new Map<string, HeapGroup>();
  const biggest: HeapGroup[] = [];
  let totalBytes = 0;
  const add = (map: Map<string, HeapGroup>, name: string, bytes: number) => {
    const group = map.get(name) ?? map.set(name, { name, bytes: 0, count: 0 }).get(name)!;
    group.bytes += bytes;
    group.count++;
  };
  for (let i = 0; i < data.nodes.length; i += stride) {
    const type = types[data.nodes[i + typeAt]!] ?? 'unknown';
    const name = data.strings[data.nodes[i + nameAt]!] ?? '';
    const bytes = data.nodes[i + sizeAt]!;
    totalBytes += bytes;
    add(byType, type, bytes);
    if (NAMED_TYPES.has(type)) add(byConstructor, `${type === 'closure' ? 'function ' : ''}${name || '(anonymous)'}`, bytes);
    if (bytes >= 64 * 1024) biggest.push({ name: `${type}: ${short(name)}`, bytes, count: 1 });
  }
  const sorted = (groups: Iterable<HeapGroup>) => [...groups].sort((a, b) => b.bytes - a.bytes).slice(0, top);
  return { totalBytes, byType: sorted(byType.values()), byConstructor: sorted(byConstructor.values()), biggest: sorted(biggest) };
}

export function formatHeapSummary(summary: HeapSummary): string {
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MB`;
  const section = (title: string, groups: HeapGroup[]) =>
    [`${title}:`, ...groups.map((g) => `  ${mb(g.bytes).padStart(9)}  ${String(g.count).padStart(7)}  ${g.name}`)].join('\n');
  return [
    `heap snapshot: ${mb(summary.totalBytes)} in live objects`,
    section('by node type (bytes, objects)', summary.byType),
    section('by constructor', summary.byConstructor),
    section('largest single objects', summary.biggest),
  ].join('\n');
}
