// Reading what flag changes left behind: a user's unread message ids and the events of a type.
import type { DevUserName } from '../../src/dev-seed.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import type { TestContext } from './context.js';

/** Every message id the dev user has unread, ascending. */
export async function unreadIdsOf(ctx: TestContext, name: DevUserName): Promise<number[]> {
  const rows = await ctx.services.db.selectFrom('user_message').select(['message_id', 'flags']).where('user_id', '=', ctx.seed.users[name].id).execute();
  return rows.filter((r) => (r.flags & FLAG_BITS.read) === 0).map((r) => r.message_id).sort((a, b) => a - b);
}

/** The events of one type published since the context's events were last cleared, in order. */
export function eventsOfType(ctx: TestContext, type: string): Array<Record<string, any>> {
  return ctx.events.filter((d) => d.event.type === type).map((d) => d.event);
}
