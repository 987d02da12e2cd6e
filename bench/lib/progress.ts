// A progress bar on stderr: redrawn in place on a terminal, a line every 10% otherwise.

/** Set enabled to false to silence progress output (tests). */
export const progressOutput = { enabled: true };

function write(text: string): void {
  if (progressOutput.enabled) process.stderr.write(text);
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export class ProgressBar {
  private readonly started = Date.now();
  private lastDraw = 0;
  private lastTenth = -1;
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(
    private readonly label: string,
    private readonly total: number,
  ) {}

  update(done: number, detail = ''): void {
    const now = Date.now();
    const fraction = this.total > 0 ? Math.min(1, done / this.total) : 1;
    const tenth = Math.floor(fraction * 10);
    if (this.tty ? now - this.lastDraw < 200 && done < this.total : tenth === this.lastTenth) return;
    this.lastDraw = now;
    this.lastTenth = tenth;
    const elapsed = (now - this.started) / 1000;
    const eta = fraction > 0 ? (elapsed / fraction) * (1 - fraction) : Infinity;
    const width = 30;
    const filled = Math.round(fraction * width);
    const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
    const line =
      `${this.label} [${bar}] ${(fraction * 100).toFixed(1).padStart(5)}% ${done.toLocaleString('en')}/` +
      `${this.total.toLocaleString('en')} ${detail} ${formatDuration(elapsed)} elapsed, eta ${formatDuration(eta)}`;
    write(this.tty ? `\r${line}\x1b[K` : `${line}\n`);
  }

  finish(detail = ''): void {
    if (this.tty || this.lastTenth !== 10) {
      this.lastDraw = 0;
      this.lastTenth = -1;
      this.update(this.total, detail);
    }
    if (this.tty) write('\n');
  }
}

/** Prints a step and how long it took. */
export async function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  write(`${label}...\n`);
  const result = await work();
  write(`${label}: done in ${formatDuration((Date.now() - started) / 1000)}\n`);
  return result;
}
