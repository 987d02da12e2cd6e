// Whether the store takes writes. A full disk leaves reads working, so a query alone does not show
// it: every write that fails for lack of space is noted here, and the next write that succeeds
// clears it. Readiness (src/http/health.ts) reports the store degraded meanwhile, so a load
// balancer sends requests elsewhere. The note lapses after a while: with no requests coming (the
// balancer has stopped sending them) no write could clear it once there is room again, so
// readiness lets requests through again and the next write that fails notes it anew.
import type { Clock } from '../services.js';
import { classifyStoreError } from './store-errors.js';

/** How long a write failing for lack of space keeps the store degraded (unless a write succeeds sooner). */
export const FULL_DISK_NOTE_SECONDS = 30;

export class WriteHealth {
  /** When (clock seconds) the last write failed for lack of space, and what the store said; null once one succeeds. */
  private lastFull: { at: number; message: string } | null = null;

  constructor(private readonly clock: Clock) {}

  failed(error: unknown): void {
    if (classifyStoreError(error) !== 'full') return;
    this.lastFull = { at: this.clock.now(), message: (error as Error).message };
  }

  succeeded(): void {
    this.lastFull = null;
  }

  /** Why writes fail now, or null while they are not known to. */
  problem(): string | null {
    const full = this.lastFull;
    if (!full || this.clock.now() - full.at >= FULL_DISK_NOTE_SECONDS) return null;
    return `degraded: writes fail for lack of disk space (${full.message})`;
  }

  /** Runs a store's write and notes how it went. */
  async watch<T>(write: Promise<T>): Promise<T> {
    try {
      const value = await write;
      this.succeeded();
      return value;
    } catch (error) {
      this.failed(error);
      throw error;
    }
  }
}
