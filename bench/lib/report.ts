// The result table printed after a run, and the JSON written next to it.
import type { LoadResult } from './load.js';

export interface Row {
  figure: string;
  connections: number | null;
  /** Throughput (2xx per second) or, for the process rows, the figure itself. */
  value: number;
  unit: string;
  p50: number | null;
  p99: number | null;
  baseline: { value: number; p50: number | null; p99: number | null } | null;
  target: string | null;
  met: boolean | null;
}

export function loadRow(
  figure: string,
  result: LoadResult,
  baseline: LoadResult | undefined,
  unit = 'req/s',
  target: { text: string; met: boolean } | null = null,
): Row {
  return {
    figure,
    connections: result.connections,
    value: result.perSecond,
    unit,
    p50: result.p50,
    p99: result.p99,
    baseline: baseline ? { value: baseline.perSecond, p50: baseline.p50, p99: baseline.p99 } : null,
    target: target?.text ?? null,
    met: target?.met ?? null,
  };
}

export function processRow(figure: string, value: number, unit: string, baseline: number, target: { text: string; met: boolean }): Row {
  return {
    figure, connections: null, value, unit, p50: null, p99: null,
    baseline: { value: baseline, p50: null, p99: null }, target: target.text, met: target.met,
  };
}

const num = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined || !Number.isFinite(n) ? '-' : n >= 100 ? n.toFixed(0) : n.toFixed(digits);
/** Two decimals, or two significant digits below 0.1 (a share of the baseline such as 0.0025x). */
const ratio = (a: number | null, b: number | null | undefined) =>
  a === null || b === null || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0
    ? '-'
    : `${a / b >= 0.1 || a === 0 ? (a / b).toFixed(2) : (a / b).toPrecision(2)}x`;

export function formatTable(rows: Row[]): string {
  const header = ['figure', 'conns', 'value', 'unit', 'p50 ms', 'p99 ms', 'x base value', 'x base p50', 'x base p99', 'target', 'met'];
  const lines = rows.map((r) => [
    r.figure,
    r.connections === null ? '' : String(r.connections),
    num(r.value, 1),
    r.unit,
    num(r.p50),
    num(r.p99),
    ratio(r.value, r.baseline?.value),
    ratio(r.p50, r.baseline?.p50),
    ratio(r.p99, r.baseline?.p99),
    r.target ?? '',
    r.met === null ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 || i === 3 || i >= 9 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

/** The same rows as a Markdown table, for bench/README.md. */
export function formatMarkdown(rows: Row[]): string {
  const out = ['| figure | conns | value | p50 ms | p99 ms | x baseline (value / p50 / p99) | target | met |', '|---|---:|---:|---:|---:|---|---|---|'];
  for (const r of rows) {
    out.push(
      `| ${r.figure} | ${r.connections ?? ''} | ${num(r.value, 1)} ${r.unit} | ${num(r.p50)} | ${num(r.p99)} | ` +
        `${ratio(r.value, r.baseline?.value)} / ${ratio(r.p50, r.baseline?.p50)} / ${ratio(r.p99, r.baseline?.p99)} | ` +
        `${r.target ?? ''} | ${r.met === null ? '' : r.met ? 'yes' : 'no'} |`,
    );
  }
  return out.join('\n');
}
