// Rendering a message being sent: fetch what its mentions and links name, render, and work out
// whom the mentions reach (members of mentioned groups; topic participants for @**topic**).
import { sql } from 'kysely';
import { RecipientType } from '../db/schema.js';
import { ApiError } from '../errors.js';
import {
  StreamWildcardMentionNotAllowedError,
  TopicWildcardMentionNotAllowedError,
  wildcardMentionAllowed,
} from '../lib/edit-rules.js';
import { budgetCpuClock } from '../lib/markdown/escape.js';
import { type RenderContext, renderOrReject, type RenderResult } from '../lib/markdown/index.js';
import { realmSettings } from '../lib/realm-settings.js';
import { RenderQuota } from '../lib/render-quota.js';
import { recursiveMemberIds } from '../lib/user-groups.js';
import { renderContextFor } from '../queries/render-context.js';
import { listUserGroups } from '../queries/user-groups.js';
import type { Services } from '../services.js';
import type { ActionContext } from './context.js';

export interface RenderTarget {
  recipientId: number;
  recipientType: number;
  topic: string;
  /** Everyone who receives the message. */
  userIds: number[];
}

/**
 * Members of mentioned groups among the recipients, through subgroups too, after checking that
 * the sender may mention each group: they must belong to its can_mention_group (silent mentions
 * are not checked, and never reach `groupIds`).
 */
async function groupMemberRecipients(ctx: ActionContext, groupIds: Set<number>, recipients: number[]): Promise<number[]> {
  if (groupIds.size === 0) return [];
  const groups = await listUserGroups(ctx.tx, ctx.realm, ctx.now);
  const byId = new Map(groups.map((g) => [g.id, g]));
  const members = new Set<number>();
  for (const id of [...groupIds].sort((a, b) => a - b)) {
    const group = byId.get(id);
    if (!group) continue;
    const allowed = byId.get(group.can_mention_group);
    if (allowed?.name !== 'role:everyone' && !(allowed && recursiveMemberIds(groups, allowed.id).includes(ctx.actor.id))) {
      throw new ApiError(
        `You are not allowed to mention user group '${group.name}'. You must be a member of '${allowed?.name ?? ''}' to mention this group.`,
      );
    }
    for (const member of recursiveMemberIds(groups, id)) members.add(member);
  }
  const receiving = new Set(recipients);
  return [...members].filter((id) => receiving.has(id));
}

/** Who has taken part in the topic: its senders and those who reacted to its messages. */
async function topicParticipants(ctx: ActionContext, target: RenderTarget): Promise<Set<number>> {
  const inTopic = ctx.tx
    .selectFrom('message')
    .select('id')
    .where('recipient_id', '=', target.recipientId)
    .where(sql<string>`lower(subject)`, '=', target.topic.toLowerCase());
  const senders = await ctx.tx
    .selectFrom('message')
    .select('sender_id')
    .distinct()
    .where('recipient_id', '=', target.recipientId)
    .where(sql<string>`lower(subject)`, '=', target.topic.toLowerCase())
    .execute();
  const reactors = await ctx.tx.selectFrom('reaction').select('user_id').distinct().where('message_id', 'in', inTopic).execute();
  return new Set([ctx.actor.id, ...senders.map((r) => r.sender_id), ...reactors.map((r) => r.user_id)]);
}

/** One share of render time per user and process (each process has its own event loop). */
const quotas = new WeakMap<Services, RenderQuota>();

/**
 * renderOrReject charged to the user's share of render time (lib/render-quota.ts), which is off
 * where rate limits are. The render is synchronous: nothing else runs between check and charge.
 */
export function renderAsUser(services: Services, userId: number, content: string, context: RenderContext): RenderResult {
  if (!services.config.rateLimits) return renderOrReject(content, context);
  let quota = quotas.get(services);
  if (!quota) quotas.set(services, (quota = new RenderQuota()));
  quota.check(userId, services.clock.now() * 1000);
  const started = budgetCpuClock();
  try {
    return renderOrReject(content, context);
  } finally {
    quota.charge(userId, budgetCpuClock() - started, services.clock.now() * 1000);
  }
}

export async function renderForSend(ctx: ActionContext, target: RenderTarget, content: string): Promise<RenderResult> {
  const context = await renderContextFor(ctx.tx, ctx.realm, ctx.actor, content);
  const rendered = renderAsUser(ctx.services, ctx.actor.id, content, context);
  for (const id of await groupMemberRecipients(ctx, rendered.mentionedGroupIds, target.userIds)) rendered.mentionedUserIds.add(id);
  if (rendered.topicWildcard) {
    // Only channel topics have participants; a topic wildcard in a direct message reaches no one.
    rendered.topicWildcardUserIds =
      target.recipientType === RecipientType.STREAM ? await topicParticipants(ctx, target) : new Set<number>();
  }
  return rendered;
}

/**
 * Wildcard mentions of a stream message must pass the realm's wildcard_mention_policy for the
 * actor, judged by the audience each reaches (`streamAudience` is asked only for a stream wildcard).
 */
export async function checkWildcardPolicy(
  ctx: ActionContext,
  rendered: RenderResult,
  streamAudience: () => number | Promise<number>,
): Promise<void> {
  if (!rendered.streamWildcard && !rendered.topicWildcard) return;
  const settings = realmSettings(ctx.realm);
  const allowed = (audience: number) =>
    wildcardMentionAllowed(ctx.actor, audience, settings.wildcard_mention_policy, settings.waiting_period_threshold, ctx.now);
  if (rendered.streamWildcard && !allowed(await streamAudience())) throw new StreamWildcardMentionNotAllowedError();
  if (rendered.topicWildcard && !allowed(rendered.topicWildcardUserIds?.size ?? 0)) throw new TopicWildcardMentionNotAllowedError();
}
