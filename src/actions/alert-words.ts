// Adding and removing a user's alert words; every change sends the whole new list.
import { ApiError } from '../errors.js';
import { cleanAlertWords } from '../lib/alert-words.js';
import { MAX_ALERT_WORDS_PER_USER } from '../lib/limits.js';
import { alertWordsOf } from '../queries/alert-words.js';
import type { ActionContext } from './context.js';

async function announce(ctx: ActionContext): Promise<string[]> {
  const words = await alertWordsOf(ctx.tx, ctx.actor.id);
  ctx.events.send({ type: 'alert_words', alert_words: words }, [ctx.actor.id]);
  return words;
}

/** Adds the words the user does not have yet (compared case-insensitively); returns the new list. */
export async function doAddAlertWords(ctx: ActionContext, words: readonly string[]): Promise<string[]> {
  const existing = new Set((await alertWordsOf(ctx.tx, ctx.actor.id)).map((w) => w.toLowerCase()));
  const added = cleanAlertWords(words).filter((word) => !existing.has(word.toLowerCase()));
  if (existing.size + added.length > MAX_ALERT_WORDS_PER_USER) {
    throw new ApiError(`Too many alert words (limit: ${MAX_ALERT_WORDS_PER_USER} per user)`);
  }
  if (added.length > 0) {
    await ctx.tx
      .insertInto('alert_word')
      .values(added.map((word) => ({ realm_id: ctx.realm.id, user_id: ctx.actor.id, word })))
      .execute();
  }
  return announce(ctx);
}

/** Removes the given words, matched case-insensitively; unknown words are ignored. Returns the new list. */
export async function doRemoveAlertWords(ctx: ActionContext, words: readonly string[]): Promise<string[]> {
  // Compared here rather than in SQL: SQLite's lower() folds ASCII letters only.
  const lowered = new Set(words.map((w) => w.toLowerCase()));
  const rows = await ctx.tx.selectFrom('alert_word').select(['id', 'word']).where('user_id', '=', ctx.actor.id).execute();
  const doomed = rows.filter((row) => lowered.has(row.word.toLowerCase())).map((row) => row.id);
  if (doomed.length > 0) await ctx.tx.deleteFrom('alert_word').where('id', 'in', doomed).execute();
  return announce(ctx);
}
