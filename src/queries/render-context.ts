// What the renderer needs to know about a realm, fetched for just the names a message mentions:
// the content is scanned for @**...**, @*...* and #**...** first so only those rows are read.
// The realm's linkifiers come from their in-memory cache.
import { sql } from 'kysely';
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { findLinkifierMatches } from '../lib/linkifiers/index.js';
import { realmLinkifiers } from './linkifier-cache.js';
import type { MentionableGroup, MentionableUser, RenderContext, UploadedImagePreview } from '../lib/markdown/index.js';
import { splitNameAndId } from '../lib/markdown/mentions.js';
import { canAccessStreamHistory, canSeeStream } from '../lib/permissions.js';
import { realmSettings } from '../lib/realm-settings.js';
import { resolveSettings } from '../lib/settings-registry.js';
import { emojiPath } from '../lib/realm-images.js';
import { activeRealmEmojiNamed } from './realm-emoji.js';
import { thumbnailUrl } from '../lib/thumbnails.js';
import { getStreamsByNames } from './streams.js';
import { isStorableText } from './users.js';

/** More candidates than this are ignored: a message naming hundreds of people is not plausible. */
const MAX_CANDIDATES = 250;
const MAX_TOPIC_LINKS = 20;

const USER_CANDIDATE = /@_?\*\*([^*]{1,200})\*\*/g;
const GROUP_CANDIDATE = /@_?\*([^*]{1,200})\*/g;
const STREAM_CANDIDATE = /#\*\*([^*]{1,200})\*\*/g;
// Custom emoji names (lib/emoji-names.ts); the lookahead also finds :b: in :a:b:.
const EMOJI_CANDIDATE = /:(?=([0-9a-z_-]{1,100}):)/g;
const UPLOAD_CANDIDATE = /user_uploads\/(\d{1,10}\/[^\s()[\]"'<>?#]{1,1000})/g;

function candidates(content: string, pattern: RegExp): string[] {
  const found = new Set<string>();
  for (const match of content.matchAll(pattern)) {
    if (found.size >= MAX_CANDIDATES) break;
    if (isStorableText(match[1]!)) found.add(match[1]!);
  }
  return [...found];
}

async function mentionableUsers(db: DbOrTx, realmId: number, texts: string[]) {
  const names = new Set<string>();
  const ids = new Set<number>();
  for (const text of texts) {
    const { id } = splitNameAndId(text);
    if (id !== null) ids.add(id);
    else names.add(text);
  }
  if (names.size === 0 && ids.size === 0) return [];
  const lowered = [...names].map((n) => n.toLowerCase());
  return db
    .selectFrom('user_profile')
    .select(['id', 'full_name'])
    .where('realm_id', '=', realmId)
    .where('is_active', '=', 1)
    .where((eb) =>
      eb.or([
        ...(lowered.length > 0 ? [eb(sql<string>`lower(full_name)`, 'in', lowered), eb('full_name', 'in', [...names])] : []),
        ...(ids.size > 0 ? [eb('id', 'in', [...ids])] : []),
      ]),
    )
    .execute();
}

export function userLookup(users: MentionableUser[]): RenderContext['lookupUser'] {
  const byId = new Map(users.map((u) => [u.id, u]));
  const byName = new Map<string, MentionableUser[]>();
  for (const user of users) {
    const key = user.full_name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), user]);
  }
  return (name, id) => {
    if (id !== null) {
      const user = byId.get(id);
      return user && (name === '' || user.full_name.toLowerCase() === name.toLowerCase()) ? user : undefined;
    }
    // Two people with the same name need the @**Name|id** form.
    const named = byName.get(name.toLowerCase());
    return named?.length === 1 ? named[0] : undefined;
  };
}

async function mentionableGroups(db: DbOrTx, realmId: number, names: string[]): Promise<MentionableGroup[]> {
  if (names.length === 0) return [];
  return db.selectFrom('user_group').select(['id', 'name']).where('realm_id', '=', realmId).where('name', 'in', names).execute();
}

async function visibleStreams(db: DbOrTx, realmId: number, viewer: UserRow, texts: string[]) {
  const names = texts.map((t) => (t.includes('>') ? t.slice(0, t.indexOf('>')) : t));
  const streams = [...(await getStreamsByNames(db, realmId, names)).values()];
  if (streams.length === 0) return new Map<string, { id: number; name: string; recipientId: number }>();
  const subscribed = new Set(
    (
      await db
        .selectFrom('subscription')
        .select('recipient_id')
        .where('user_id', '=', viewer.id)
        .where('active', '=', 1)
        .where('recipient_id', 'in', streams.map((s) => s.recipient_id!))
        .execute()
    ).map((r) => r.recipient_id),
  );
  const visible = streams.filter((s) => canSeeStream(viewer, s, subscribed.has(s.recipient_id!)));
  return new Map(
    visible.map((s) => {
      const isSubscribed = subscribed.has(s.recipient_id!);
      // Which of its messages a topic link may point at: a /with/ id shows that the topic exists.
      const history: TopicHistory = canAccessStreamHistory(viewer, s, isSubscribed) ? 'all' : isSubscribed ? 'received' : 'none';
      return [s.name.toLowerCase(), { id: s.id, name: s.name, recipientId: s.recipient_id!, history }];
    }),
  );
}

type TopicHistory = 'all' | 'received' | 'none';

async function latestTopicMessages(
  db: DbOrTx,
  viewer: UserRow,
  streams: Map<string, { id: number; recipientId: number; history: TopicHistory }>,
  texts: string[],
) {
  const latest = new Map<string, number>();
  const pairs = texts.filter((t) => t.includes('>')).slice(0, MAX_TOPIC_LINKS);
  for (const text of pairs) {
    const stream = streams.get(text.slice(0, text.indexOf('>')).toLowerCase());
    const topic = text.slice(text.indexOf('>') + 1);
    if (!stream || topic === '' || stream.history === 'none') continue;
    let query = db
      .selectFrom('message')
      .select((eb) => eb.fn.max('message.id').as('id'))
      .where('message.recipient_id', '=', stream.recipientId)
      .where(sql<string>`lower(message.subject)`, '=', topic.toLowerCase());
    if (stream.history === 'received') {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('user_message')
            .select('user_message.message_id')
            .whereRef('user_message.message_id', '=', 'message.id')
            .where('user_message.user_id', '=', viewer.id),
        ),
      );
    }
    const row = await query.executeTakeFirst();
    if (row?.id !== null && row?.id !== undefined) latest.set(`${stream.id}\u0000${topic.toLowerCase()}`, Number(row.id));
  }
  return latest;
}

/** Previews of the uploaded images the content may link (the renderer decides which it shows). */
async function uploadedImages(db: DbOrTx, realmId: number, content: string): Promise<Map<string, UploadedImagePreview>> {
  const paths = new Set<string>();
  for (const match of content.matchAll(UPLOAD_CANDIDATE)) {
    if (paths.size >= MAX_CANDIDATES) break;
    try {
      paths.add(decodeURIComponent(match[1]!));
    } catch {
      paths.add(match[1]!);
    }
  }
  if (paths.size === 0) return new Map();
  const rows = await db
    .selectFrom('attachment')
    .innerJoin('image_attachment', 'image_attachment.attachment_id', 'attachment.id')
    .select(['attachment.path_id', 'image_attachment.frames'])
    .where('attachment.realm_id', '=', realmId)
    .where('attachment.path_id', 'in', [...paths])
    .execute();
  return new Map(rows.map((row) => [row.path_id, { src: thumbnailUrl(row.path_id, row) }]));
}

/** A render context for `viewer` (the sender) over `content`, with every lookup answered from memory. */
export async function renderContextFor(db: DbOrTx, realm: RealmRow, viewer: UserRow, content: string): Promise<RenderContext> {
  const userTexts = content.includes('@') ? candidates(content, USER_CANDIDATE) : [];
  const groupNames = content.includes('@*') || content.includes('@_*') ? candidates(content, GROUP_CANDIDATE) : [];
  const streamTexts = content.includes('#**') ? candidates(content, STREAM_CANDIDATE) : [];
  const users = await mentionableUsers(db, realm.id, userTexts);
  const groups = new Map((await mentionableGroups(db, realm.id, groupNames)).map((g) => [g.name, g]));
  const streams = streamTexts.length > 0 ? await visibleStreams(db, realm.id, viewer, streamTexts) : new Map();
  const topics = streams.size > 0 ? await latestTopicMessages(db, viewer, streams, streamTexts) : new Map<string, number>();
  const linkifiers = await realmLinkifiers(db, realm.id);
  const emojiNames = content.includes(':') ? candidates(content, EMOJI_CANDIDATE) : [];
  const customEmoji = await activeRealmEmojiNamed(db, realm.id, emojiNames);
  const images = realmSettings(realm).inline_image_preview && content.includes('user_uploads/') ? await uploadedImages(db, realm.id, content) : null;
  return {
    lookupUser: userLookup(users),
    lookupUserGroup: (name) => groups.get(name),
    lookupStream: (name) => streams.get(name.toLowerCase()),
    topicLatestMessageId: (streamId, topic) => topics.get(`${streamId}\u0000${topic.toLowerCase()}`),
    linkify: (text, checkBudget) => findLinkifierMatches(text, linkifiers, checkBudget),
    defaultCodeLanguage: realmSettings(realm).default_code_block_language || undefined,
    realmUrl: realm.url.replace(/\/+$/, ''),
    translateEmoticons: resolveSettings(viewer.settings).translate_emoticons === true,
    lookupRealmEmoji: (name) => {
      const emoji = customEmoji.get(name);
      return emoji && emojiPath(emoji.realm_id, emoji.file_name);
    },
    ...(images ? { uploadedImage: (pathId: string) => images.get(pathId) } : {}),
  };
}
