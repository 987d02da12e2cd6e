// One transaction helper for every action: retries serialization failures and busy stores, and
// unique violations: two concurrent actions that both checked for a row and both inserted it. The
// retry runs the check again, which now sees the other's row and answers as the API should.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

const RETRYABLE = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', '40001', '40P01', '23505']);
const ATTEMPTS = 3;

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

export async function withTransaction<T>(
  db: Kysely<Database>,
  work: (tx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      await new Promise((r) => setTimeout(r, 20 * attempt));
    }
  }
}
