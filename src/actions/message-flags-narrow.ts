// POST /messages/flags/narrow: a flag change over a range of a narrow, found the way
// GET /messages finds its range, and bounded so one call touches at most 5000 messages.
import { ApiError } from '../errors.js';
import type { NarrowTerm } from '../lib/narrow/types.js';
import { type Anchor, fetchMessages } from '../queries/message-fetch.js';
import type { ActionContext } from './context.js';
import { changeMessageFlags, checkFlagChange } from './message-flags.js';

/** The most messages one call processes. */
export const MAX_MESSAGES_PER_UPDATE = 5000;

export interface NarrowFlagRequest {
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: readonly NarrowTerm[];
  op: string;
  flag: string;
}

/**
 * Shrinks the two sides so that they and the anchor stay within the limit. Each side keeps at
 * least half of what is left when both ask for more, so neither can starve the other.
 */
export function clampRange(numBefore: number, numAfter: number, includeAnchor: boolean): { numBefore: number; numAfter: number } {
  const room = MAX_MESSAGES_PER_UPDATE - (includeAnchor ? 1 : 0);
  const before = Math.min(numBefore, Math.max(room - numAfter, Math.floor(room / 2)));
  return { numBefore: before, numAfter: Math.min(numAfter, room - before) };
}

export async function doUpdateMessageFlagsForNarrow(ctx: ActionContext, request: NarrowFlagRequest): Promise<Record<string, unknown>> {
  if (request.numBefore > 0 && request.numAfter > 0 && !request.includeAnchor) {
    throw new ApiError('The anchor can only be excluded at an end of the range');
  }
  const { flag, adding } = checkFlagChange(request.flag, request.op);
  const range = clampRange(request.numBefore, request.numAfter, request.includeAnchor);
  const fetched = await fetchMessages(ctx.tx, {
    realm: ctx.realm,
    user: ctx.actor,
    narrow: request.narrow,
    anchor: request.anchor,
    includeAnchor: request.includeAnchor,
    ...range,
  });
  const ids = fetched.rows.map((row) => row.id);
  const change = await changeMessageFlags(ctx, request.flag, request.op, ids, { accessChecked: true });
  const body: Record<string, unknown> = {
    processed_count: ids.length,
    updated_count: change.messages.length,
    first_processed_id: ids[0] ?? null,
    last_processed_id: ids.at(-1) ?? null,
    found_oldest: fetched.found_oldest,
    found_newest: fetched.found_newest,
  };
  if (flag === 'read' && !adding) body.ignored_because_not_subscribed_channels = change.ignoredStreamIds;
  return body;
}
