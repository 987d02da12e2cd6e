// The one module that speaks to Confab: the same endpoints as every client, under /json/...,
// authenticated by the session cookie, with the CSRF token (the csrftoken cookie) on every change.

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export type Params = Record<string, string | number | boolean | unknown[] | object>;

/** Zulip's form encoding: strings as they are, everything else as JSON. */
export function encodeParams(params: Params): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) body.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  return body;
}

export function csrfToken(cookie: string): string {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'csrftoken') return decodeURIComponent(rest.join('='));
  }
  return '';
}

export interface ApiOptions {
  fetch?: typeof fetch;
  cookie?: () => string;
  base?: string;
}

export function createApi(options: ApiOptions = {}) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const cookie = options.cookie ?? (() => document.cookie);
  const base = options.base ?? '/json';

  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    params: Params = {},
    signal?: AbortSignal,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    const encoded = encodeParams(params);
    const get = method === 'GET';
    const url = `${base}${path}${get && [...encoded].length > 0 ? `?${encoded}` : ''}`;
    const headers: Record<string, string> = {};
    if (!get) {
      headers['X-CSRFToken'] = csrfToken(cookie());
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    Object.assign(headers, extraHeaders);
    const res = await doFetch(url, { method, headers, body: get ? undefined : encoded, credentials: 'same-origin', signal });
    let data: Record<string, unknown>;
    try {
      data = (await res.json()) as Record<string, unknown>;
    } catch {
      throw new ApiError(`HTTP ${res.status}`, 'NETWORK', res.status);
    }
    if (!res.ok || data.result !== 'success') {
      throw new ApiError(String(data.msg ?? `HTTP ${res.status}`), String(data.code ?? 'BAD_REQUEST'), res.status);
    }
    return data as T;
  }

  return {
    call,
    register: (params: Params) => call('POST', '/register', params),
    getEvents: (queueId: string, lastEventId: number, signal?: AbortSignal) =>
      call<{ events: ZEvent[] }>('GET', '/events', { queue_id: queueId, last_event_id: lastEventId }, signal).then((r) => r.events),
    getMessages: (narrow: unknown[], anchor: string | number, before: number, after: number) =>
      call<{ messages: Message[]; found_newest: boolean; found_oldest: boolean }>('GET', '/messages', {
        anchor: String(anchor),
        num_before: before,
        num_after: after,
        narrow,
        apply_markdown: true,
        client_gravatar: false,
      }),
    getTopics: (streamId: number) => call<{ topics: { name: string; max_id: number }[] }>('GET', `/users/me/${streamId}/topics`),
    /** With a key, a repeat of the request (a retry after a lost answer) gets the first answer instead of a second message. */
    sendMessage: (params: Params, idempotencyKey?: string) =>
      call<{ id: number }>('POST', '/messages', params, undefined, idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
    markRead: (ids: number[]) => call('POST', '/messages/flags', { messages: ids, op: 'add', flag: 'read' }),
    markStreamAsRead: (streamId: number) => call('POST', '/mark_stream_as_read', { stream_id: streamId }),
    markTopicAsRead: (streamId: number, topic: string) => call('POST', '/mark_topic_as_read', { stream_id: streamId, topic_name: topic }),
    markAllAsRead: () => call('POST', '/mark_all_as_read'),
    /** Reports this tab's presence; the answer holds everyone's (slim form). */
    updatePresence: (status: 'active' | 'idle') =>
      call<{ presences: Record<string, { active_timestamp: number; idle_timestamp: number }> }>('POST', '/users/me/presence', { status, slim_presence: true }),
    setFlag: (ids: number[], flag: string, on: boolean) => call('POST', '/messages/flags', { messages: ids, op: on ? 'add' : 'remove', flag }),
    updateMessage: (id: number, params: Params) => call('PATCH', `/messages/${id}`, params),
    deleteMessage: (id: number) => call('DELETE', `/messages/${id}`),
    addReaction: (id: number, emoji: Params) => call('POST', `/messages/${id}/reactions`, emoji),
    removeReaction: (id: number, emoji: Params) => call('DELETE', `/messages/${id}/reactions`, emoji),
    messageHistory: (id: number) => call<{ message_history: MessageVersion[] }>('GET', `/messages/${id}/history`),
    /** The streams the user may see, each saying whether new users join it by default. */
    getStreams: () => call<{ streams: StreamInfo[] }>('GET', '/streams', { include_default: true }).then((r) => r.streams),
    createInviteLink: (params: Params) => call<{ invite_link: string }>('POST', '/invites/multiuse', params).then((r) => r.invite_link),
  };
}

export type Api = ReturnType<typeof createApi>;

/** A message as GET /messages and message events carry it (the fields the client reads). */
export interface Message {
  id: number;
  sender_id: number;
  /** The sender's avatar (absent or null when the client computes gravatars itself). */
  avatar_url?: string | null;
  sender_full_name: string;
  sender_email: string;
  content: string;
  timestamp: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: string | { id: number; email: string; full_name: string }[];
  flags: string[];
  last_edit_timestamp?: number;
  /** Set on a local echo only: the message shown before the server has it (see compose-echo.ts). */
  local?: { localId: string; state: 'sending' | 'failed'; params: Params; idempotencyKey: string; error?: string };
  reactions?: Reaction[];
  edit_history?: EditHistoryEntry[];
}

/** A stream as GET /streams lists it (the fields the client reads). */
export interface StreamInfo {
  stream_id: number;
  name: string;
  invite_only: boolean;
  is_default?: boolean;
}

export interface ZEvent {
  id: number;
  type: string;
  [key: string]: unknown;
}

/** One reaction as messages and reaction events carry it. */
export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  user_id: number;
}

/** One entry of a message's edit_history, newest first. */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

/** One version of a message, oldest first, as GET /messages/{id}/history answers. */
export interface MessageVersion {
  timestamp: number;
  user_id: number | null;
  topic: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  rendered_content?: string;
  content_html_diff?: string;
}
