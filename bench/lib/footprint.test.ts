// The footprint bench's readers: a heap snapshot summed by type and constructor, and /proc smaps
// summed by component.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { formatHeapSummary, summariseHeapSnapshot } from './heap-summary.js';
import { residentByComponent } from './proc-memory.js';

describe('summariseHeapSnapshot', () => {
  const dir = mkdtempSync(join(tmpdir(), 'confab-heap-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('sums self sizes by node type and by constructor, and lists objects of 64 KB or more', () => {
    const path = join(dir, 'small.heapsnapshot');
    // Nodes are flat: type, name, id, self_size, edge_count per node.
    writeFileSync(path, JSON.stringify({
      snapshot: { meta: { node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'], node_types: [['hidden', 'object', 'string', 'closure']] } },
      nodes: [1, 0, 1, 100, 0, 1, 0, 3, 50, 0, 1, 1, 5, 40, 0, 2, 2, 7, 70_000, 0, 3, 3, 9, 30, 0],
      strings: ['Session', 'Map', 'x'.repeat(100), 'handler'],
    }));
    const summary = summariseHeapSnapshot(path);
    assert.equal(summary.totalBytes, 70_220);
    assert.deepEqual(summary.byType, [
      { name: 'string', bytes: 70_000, count: 1 },
      { name: 'object', bytes: 190, count: 3 },
      { name: 'closure', bytes: 30, count: 1 },
    ]);
    assert.deepEqual(summary.byConstructor, [
      { name: 'Session', bytes: 150, count: 2 },
      { name: 'Map', bytes: 40, count: 1 },
      { name: 'function handler', bytes: 30, count: 1 },
    ]);
    assert.deepEqual(summary.biggest, [{ name: `string: ${'x'.repeat(77)}...`, bytes: 70_000, count: 1 }]);
    assert.match(formatHeapSummary(summary), /^heap snapshot: 0\.07 MB in live objects\n/);
  });
});

describe('residentByComponent', () => {
  it("splits this process's resident memory into parts that add up to VmRSS", () => {
    const parts = residentByComponent(process.pid);
    assert.ok(parts);
    const rssMb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
    // Both are read a moment apart from a process that keeps allocating.
    assert.ok(Math.abs(parts.totalMb - rssMb) < 0.05 * rssMb, `${parts.totalMb} vs ${rssMb}`);
    assert.ok(parts.parts.some((p) => p.name === 'node binary' && p.mb > 1), JSON.stringify(parts.parts));
    assert.ok(parts.threads >= 1);
  });

  it('answers null for a process that does not exist', () => {
    assert.equal(residentByComponent(2 ** 22 + 1), null);
  });
});
