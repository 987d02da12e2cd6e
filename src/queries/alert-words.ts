// Reading a user's alert words.
import type { DbOrTx } from '../db/schema.js';

/** The user's alert words, in the order they were added. */
export async function alertWordsOf(db: DbOrTx, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('alert_word').select('word').where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((row) => row.word);
}
