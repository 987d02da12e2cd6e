// A process's resident memory by component, from /proc/<pid>/smaps (Linux): the node binary's
// own pages, native addons, shared libraries, other mapped files (such as the store), the C
// heap (malloc) and anonymous mappings (V8's heap, thread stacks, malloc's other arenas).
import { readFileSync } from 'node:fs';

export interface ResidentParts {
  threads: number;
  totalMb: number;
  parts: Array<{ name: string; mb: number }>;
}

function componentOf(path: string): string {
  if (path === '') return 'anonymous (V8 heap, thread stacks, malloc arenas)';
  if (path === '[heap]') return 'C heap (malloc)';
  if (path.startsWith('[')) return 'other kernel mappings';
  if (/\/node$/.test(path)) return 'node binary';
  if (path.endsWith('.node')) return 'native addons';
  if (/\.so(\.|$)/.test(path)) return 'shared libraries';
  return 'other files';
}

/** Null when /proc cannot be read (the process ended, or not Linux). */
export function residentByComponent(pid: number): ResidentParts | null {
  let smaps: string;
  let status: string;
  try {
    smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = new Map<string, number>();
  let component = '';
  for (const line of smaps.split('\n')) {
    // A mapping's header: "start-end perms offset dev inode [path]"; its fields follow on lines of their own.
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) component = componentOf(header[1]!.trim());
    else if (line.startsWith('Rss:')) kb.set(component, (kb.get(component) ?? 0) + Number(line.split(/\s+/)[1]));
  }
  const parts = [...kb].map(([name, size]) => ({ name, mb: size / 1024 })).sort((a, b) => b.mb - a.mb);
  return {
    threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? NaN),
    totalMb: parts.reduce((sum, p) => sum + p.mb, 0),
    parts,
  };
}
