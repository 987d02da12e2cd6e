// GET /static/generated/emoji/emoji_api.json, the server_emoji_data_url of /register: the Unicode
// emoji table as clients read it, {code_to_names: {code: [canonical name, ...aliases]}}. Public
// data, so no credentials; built on the first request. Clients cache it for a day and then
// revalidate with the ETag, which answers 304 while the table is unchanged.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { emojiTable } from '../lib/emoji.js';

const CACHE_CONTROL = 'public, max-age=86400';

let body: { text: string; etag: string } | undefined;

function emojiData(): { text: string; etag: string } {
  if (body) return body;
  const text = JSON.stringify({ code_to_names: emojiTable().codeToNames });
  body = { text, etag: `"${createHash('sha256').update(text).digest('hex').slice(0, 32)}"` };
  return body;
}

/** Whether an If-None-Match header names this ETag (or is "*"). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

export function serveEmojiData(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { text, etag } = emojiData();
  reply.header('cache-control', CACHE_CONTROL).header('etag', etag);
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(text);
}
