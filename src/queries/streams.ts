// Stream and subscription lookups.
import { sql } from 'kysely';
import type { DbOrTx, StreamRow, SubscriptionRow, UserGroupRow } from '../db/schema.js';
import { isStorableId, isStorableText } from './users.js';

export function getStreamById(db: DbOrTx, realmId: number, id: number): Promise<StreamRow | undefined> {
  if (!isStorableId(id)) return Promise.resolve(undefined);
  return db
    .selectFrom('stream')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('id', '=', id)
    .where('deactivated', '=', 0)
    .executeTakeFirst();
}

/** A stream by id whether archived or not: archiving and sending tell the two apart themselves. */
export function getStreamByIdAnyState(db: DbOrTx, realmId: number, id: number): Promise<StreamRow | undefined> {
  if (!isStorableId(id)) return Promise.resolve(undefined);
  return db.selectFrom('stream').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export function getStreamByName(db: DbOrTx, realmId: number, name: string): Promise<StreamRow | undefined> {
  if (!isStorableText(name)) return Promise.resolve(undefined);
  return db
    .selectFrom('stream')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .where('deactivated', '=', 0)
    .executeTakeFirst();
}

/** Active subscriber ids of a stream's recipient. */
export async function subscriberIds(db: DbOrTx, recipientId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('subscription')
    .innerJoin('user_profile', 'user_profile.id', 'subscription.user_id')
    .select('subscription.user_id')
    .where('subscription.recipient_id', '=', recipientId)
    .where('subscription.active', '=', 1)
    .where('user_profile.is_active', '=', 1)
    .execute();
  return rows.map((r) => r.user_id);
}

export async function isSubscribed(db: DbOrTx, userId: number, recipientId: number): Promise<boolean> {
  const row = await db
    .selectFrom('subscription')
    .select('id')
    .where('user_id', '=', userId)
    .where('recipient_id', '=', recipientId)
    .where('active', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Active streams of the realm whose names match case-insensitively, keyed by lower-cased name. */
export async function getStreamsByNames(db: DbOrTx, realmId: number, names: string[]): Promise<Map<string, StreamRow>> {
  const wanted = [...new Set(names.filter(isStorableText).map((n) => n.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('stream')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where(sql`lower(name)`, 'in', wanted)
    .where('deactivated', '=', 0)
    .execute();
  return new Map(rows.map((row) => [row.name.toLowerCase(), row]));
}

export function listActiveStreams(db: DbOrTx, realmId: number): Promise<StreamRow[]> {
  return db.selectFrom('stream').selectAll().where('realm_id', '=', realmId).where('deactivated', '=', 0).orderBy('id').execute();
}

/** Ids of the streams a user is actively subscribed to. */
export async function subscribedStreamIds(db: DbOrTx, userId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('subscription')
    .innerJoin('stream', 'stream.recipient_id', 'subscription.recipient_id')
    .select('stream.id')
    .where('subscription.user_id', '=', userId)
    .where('subscription.active', '=', 1)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The subscription columns, read beside the stream's under names of their own. */
const SUBSCRIPTION_COLUMNS = [
  'id', 'user_id', 'recipient_id', 'active', 'is_muted', 'pin_to_top', 'color', 'desktop_notifications',
  'audible_notifications', 'push_notifications', 'email_notifications', 'wildcard_mentions_notify',
] as const;

/** A user's active stream subscriptions with their streams (active streams only), in one query. */
export async function activeSubscriptionsOf(db: DbOrTx, userId: number): Promise<Array<{ stream: StreamRow; sub: SubscriptionRow }>> {
  const rows = await db
    .selectFrom('stream')
    .innerJoin('subscription', 'subscription.recipient_id', 'stream.recipient_id')
    .selectAll('stream')
    .select(SUBSCRIPTION_COLUMNS.map((column) => sql.ref<never>(`subscription.${column}`).as(`sub_${column}`)))
    .where('subscription.user_id', '=', userId)
    .where('subscription.active', '=', 1)
    .where('stream.deactivated', '=', 0)
    .execute();
  return rows.map((row) => {
    const record = row as Record<string, unknown>;
    const sub = Object.fromEntries(SUBSCRIPTION_COLUMNS.map((column) => [column, record[`sub_${column}`]])) as SubscriptionRow;
    const stream = Object.fromEntries(Object.entries(record).filter(([key]) => !key.startsWith('sub_'))) as StreamRow;
    return { stream, sub };
  });
}

/** Active subscriber ids (active users only) for each of the given stream recipients. */
export async function subscriberIdsByRecipient(db: DbOrTx, recipientIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(recipientIds.map((id) => [id, []]));
  if (recipientIds.length === 0) return out;
  const rows = await db
    .selectFrom('subscription')
    .innerJoin('user_profile', 'user_profile.id', 'subscription.user_id')
    .select(['subscription.recipient_id', 'subscription.user_id'])
    .where('subscription.recipient_id', 'in', recipientIds)
    .where('subscription.active', '=', 1)
    .where('user_profile.is_active', '=', 1)
    .orderBy('subscription.user_id')
    .execute();
  for (const row of rows) out.get(row.recipient_id)?.push(row.user_id);
  return out;
}

export async function defaultStreamIds(db: DbOrTx, realmId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('default_stream').select('stream_id').where('realm_id', '=', realmId).execute();
  return new Set(rows.map((r) => r.stream_id));
}

export function getUserGroupById(db: DbOrTx, realmId: number, id: number): Promise<UserGroupRow | undefined> {
  if (!isStorableId(id)) return Promise.resolve(undefined);
  return db.selectFrom('user_group').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export function getUserGroupsByIds(db: DbOrTx, realmId: number, ids: number[]): Promise<UserGroupRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('user_group').selectAll().where('realm_id', '=', realmId).where('id', 'in', ids).execute();
}

export async function userGroupMemberIds(db: DbOrTx, groupIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows = await db.selectFrom('user_group_member').selectAll().where('group_id', 'in', groupIds).execute();
  for (const row of rows) out.get(row.group_id)?.push(row.user_id);
  return out;
}
