// A small filesystem of a test's own (a tmpfs mounted in a temporary folder, which needs root),
// filled to the last byte to make the disk-full failures of a real machine, and freed again.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why a small disk cannot be mounted here, or null when it can. */
export const SMALL_DISK_UNAVAILABLE = process.platform !== 'linux' || process.getuid?.() !== 0 ? 'mounting a small tmpfs needs root on Linux' : null;

export class SmallDisk {
  readonly dir: string;
  private readonly filler: string;

  constructor(sizeKib: number) {
    this.dir = mkdtempSync(join(tmpdir(), 'confab-small-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKib}k`, 'tmpfs', this.dir]);
    this.filler = join(this.dir, 'filler');
  }

  /** Takes every free byte. */
  fill(): void {
    const fd = openSync(this.filler, 'a');
    const chunk = Buffer.alloc(4096);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      closeSync(fd);
    }
  }

  /** Gives the bytes taken by fill() back. */
  free(): void {
    rmSync(this.filler, { force: true });
  }

  unmount(): void {
    execFileSync('umount', ['-l', this.dir]);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
