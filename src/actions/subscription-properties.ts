// POST /users/me/subscriptions/properties: a user's own settings for streams they are
// subscribed to. Every change is checked before any is made, and each sends an update event.
import type { SubscriptionTable } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { accessStreamById } from '../queries/stream-access.js';
import type { ActionContext } from './context.js';

export interface SubscriptionPropertyChange {
  stream_id: number;
  property: string;
  value: boolean | string | null;
}

/** Notification overrides: null means "follow the user's own default". */
const NOTIFICATION_PROPERTIES = [
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;
const FLAG_PROPERTIES = ['is_muted', 'in_home_view', 'pin_to_top'] as const;
const PROPERTIES: readonly string[] = ['color', ...FLAG_PROPERTIES, ...NOTIFICATION_PROPERTIES];

type Column = 'color' | 'is_muted' | 'pin_to_top' | (typeof NOTIFICATION_PROPERTIES)[number];

interface PlannedChange {
  recipientId: number;
  streamId: number;
  column: Column;
  /** The value stored: 0/1 for flags, null to inherit, a string for colour. */
  stored: SubscriptionTable[Column];
  /** What the events carry. */
  events: Array<{ property: string; value: boolean | string | null }>;
}

const COLOR = /^#[0-9a-fA-F]{3,6}$/;

function checkValue(property: string, value: boolean | string | null): boolean | string | null {
  if (property === 'color') {
    if (typeof value !== 'string') throw new ApiError('color is not a string');
    if (!COLOR.test(value)) throw new ApiError('color is not a valid hex color code');
    return value;
  }
  if (value === null && (NOTIFICATION_PROPERTIES as readonly string[]).includes(property)) return null;
  if (typeof value !== 'boolean') throw new ApiError(`${property} is not a boolean`);
  return value;
}

function plan(recipientId: number, streamId: number, property: string, value: boolean | string | null): PlannedChange {
  const base = { recipientId, streamId };
  if (property === 'color') return { ...base, column: 'color', stored: value as string, events: [{ property, value }] };
  // is_muted is stored; in_home_view is its legacy opposite. Either sends both events.
  if (property === 'is_muted' || property === 'in_home_view') {
    const muted = property === 'is_muted' ? (value as boolean) : !(value as boolean);
    return {
      ...base,
      column: 'is_muted',
      stored: muted ? 1 : 0,
      events: [
        { property: 'in_home_view', value: !muted },
        { property: 'is_muted', value: muted },
      ],
    };
  }
  const stored = value === null ? null : value ? 1 : 0;
  return { ...base, column: property as Column, stored, events: [{ property, value }] };
}

export async function doUpdateSubscriptionProperties(ctx: ActionContext, changes: readonly SubscriptionPropertyChange[]): Promise<void> {
  const planned: PlannedChange[] = [];
  for (const change of changes) {
    if (!PROPERTIES.includes(change.property)) throw new ApiError(`Unknown subscription property: ${change.property}`);
    const { stream, subscribed } = await accessStreamById(ctx.tx, ctx.actor, change.stream_id);
    if (!subscribed) throw new ApiError(`Not subscribed to channel ID ${stream.id}`);
    planned.push(plan(stream.recipient_id!, stream.id, change.property, checkValue(change.property, change.value)));
  }
  for (const change of planned) {
    await ctx.tx
      .updateTable('subscription')
      .set({ [change.column]: change.stored })
      .where('user_id', '=', ctx.actor.id)
      .where('recipient_id', '=', change.recipientId)
      .where('active', '=', 1)
      .execute();
    for (const { property, value } of change.events) {
      ctx.events.send({ type: 'subscription', op: 'update', stream_id: change.streamId, property, value }, [ctx.actor.id]);
    }
  }
}
