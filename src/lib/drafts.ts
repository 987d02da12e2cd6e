// The Draft resource: its accepted shape and the rules that need no store.
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { MAX_DM_RECIPIENTS } from './limits.js';
import { normalizeContent, truncateTopic } from './message-content.js';

const MAX_TIMESTAMP = 253_402_300_799;

export const DRAFT_TYPES = ['', 'stream', 'private'] as const;
export type DraftType = (typeof DRAFT_TYPES)[number];

/** One draft as clients send it (POST /drafts, PATCH /drafts/{id}); unknown keys are refused. */
export const draftInput = z.strictObject({
  type: z.enum(DRAFT_TYPES),
  to: z.array(z.number().int()).max(MAX_DM_RECIPIENTS),
  topic: z.string(),
  content: z.string().trim().min(1),
  // Beyond the year 9999 no date column can hold it.
  timestamp: z.number().max(MAX_TIMESTAMP).nullable().optional(),
});
export type DraftInput = z.output<typeof draftInput>;

/** A draft as the API shows it (GET /drafts, /register, drafts events). */
export interface DraftDict {
  id: number;
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}


/** What is stored for a draft apart from its recipient: normalized content, topic and edit time. */
export interface DraftText {
  topic: string;
  content: string;
  lastEditTime: number;
}

/** Checks a draft's text and time; `now` stands in for a missing timestamp. */
export function draftText(draft: DraftInput, now: number): DraftText {
  const content = normalizeContent(draft.content);
  const timestamp = draft.timestamp ?? now;
  if (timestamp < 0) throw new ApiError('Timestamp must not be negative.');
  let topic = '';
  if (draft.type === 'stream') {
    // Long topics are cut as message topics are; never refused.
    topic = truncateTopic(draft.topic);
    if (topic.includes('\u0000')) throw new ApiError('Topic must not contain null bytes');
    if (draft.to.length !== 1) throw new ApiError('Must specify exactly 1 channel ID for channel messages');
  }
  return { topic, content, lastEditTime: Math.floor(timestamp) };
}

/** GET /drafts lists the oldest edit first; equal times by id. */
export function byOldestEdit(a: DraftDict, b: DraftDict): number {
  return a.timestamp - b.timestamp || a.id - b.id;
}

/** /register lists the newest edit first. */
export function byNewestEdit(a: DraftDict, b: DraftDict): number {
  return -byOldestEdit(a, b);
}
