// The renderer's inputs and outputs. Everything the renderer needs to know about the realm
// (users, groups, streams, linkifiers) comes in through callbacks, so rendering does no I/O.

export interface MentionableUser {
  id: number;
  full_name: string;
}

export interface MentionableGroup {
  id: number;
  name: string;
}

export interface LinkableStream {
  id: number;
  name: string;
}

/** One linkifier hit inside a run of plain text: [start, end) in UTF-16 units. */
export interface LinkifierMatch {
  start: number;
  end: number;
  url: string;
}

export interface RenderContext {
  /** Resolves @**Name** and @**Name|id** mentions; absent means no mentions are recognised. */
  lookupUser?: (name: string, id: number | null) => MentionableUser | undefined;
  /** Resolves @*group* mentions by group name. */
  lookupUserGroup?: (name: string) => MentionableGroup | undefined;
  /** Resolves #**stream** links; return only streams the sender may see. */
  lookupStream?: (name: string) => LinkableStream | undefined;
  /** The newest message id in a topic, for the /with/ part of topic links. */
  topicLatestMessageId?: (streamId: number, topic: string) => number | undefined;
  /**
   * Linkifier matches in a run of plain text (never called inside code or links). A scan calls
   * `checkBudget` as it goes, which throws once the render has run out of time.
   */
  linkify?: (text: string, checkBudget: () => void) => LinkifierMatch[];
  /** The realm's URL (no trailing slash): links into the realm's own app become relative. */
  realmUrl?: string;
  /** The realm's language for code blocks that name none (default_code_block_language). */
  defaultCodeLanguage?: string;
  /** The image path of the organization's active custom emoji of that name, if any. */
  lookupRealmEmoji?: (name: string) => string | undefined;
  /** Whether emoticons such as :) become emoji (the sender's translate_emoticons setting). */
  translateEmoticons?: boolean;
  /** Rendering budget in milliseconds (default RENDER_TIME_LIMIT_MS, lib/limits.ts). */
  timeLimitMs?: number;
  /**
   * The preview of an uploaded image, by path_id ("2/ab/xyz/name.png"): the URL its inline image
   * shows. Undefined for uploads that get no preview; absent when previews are off.
   */
  uploadedImage?: (pathId: string) => UploadedImagePreview | undefined;
}

export interface UploadedImagePreview {
  src: string;
}

export interface RenderResult {
  html: string;
  /** Users mentioned by name (not silently). */
  mentionedUserIds: Set<number>;
  /** User groups mentioned (not silently). */
  mentionedGroupIds: Set<number>;
  /** @**all**, @**everyone**, @**stream**, @**channel**. */
  streamWildcard: boolean;
  /** @**topic**. */
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  isMeMessage: boolean;
  /** Filled by the send path: whom a topic wildcard reaches (the topic's participants). */
  topicWildcardUserIds?: Set<number>;
}

/** Raised when input is too large or rendering exceeds its budget. */
export class MarkdownRenderingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarkdownRenderingError';
  }
}

/** Per-render state threaded through markdown-it's `env`. */
export interface RenderEnv
  extends Pick<RenderResult, 'mentionedUserIds' | 'mentionedGroupIds' | 'streamWildcard' | 'topicWildcard' | 'hasLink' | 'hasImage'> {
  context: RenderContext;
  /** When the render's budget runs out, on escape.ts's budgetClock. */
  deadline: number;
  /** The budget in milliseconds, and the CPU clock (budgetCpuClock) when the render began. */
  budgetMs: number;
  cpuStart: number;
}
