// Every migration, in order. Listed statically so the compiled build needs no file scanning.
import type { Migration } from 'kysely';
import * as createCore from './2026_11_22_000000_create_core.js';

export const migrations: Record<string, Migration> = {
  '2026_11_22_000000_create_core': createCore,
};
