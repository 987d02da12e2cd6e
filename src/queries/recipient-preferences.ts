// What a message's recipients have asked for that changes their flags at send time: senders
// they muted (the message arrives read) and alert words (has_alert_word). Both are read per
// realm once and kept in memory until a muted_users or alert_words event says they changed.
import type { DbOrTx } from '../db/schema.js';
import type { EventBus } from '../events/bus.js';
import { containsWord } from '../lib/alert-words.js';
import { FLAG_BITS } from '../lib/message-flags.js';

interface RealmPreferences {
  /** muted user id -> ids of the users who muted them. */
  mutedBy: Map<number, Set<number>>;
  /** user id -> that user's alert words, lower-cased. */
  alertWords: Map<number, string[]>;
}

const CHANGING_EVENTS = new Set(['muted_users', 'alert_words']);

class PreferenceCache {
  /** Bumped on every change, so a read that raced with a change is not kept. */
  generation = 0;
  readonly realms = new Map<number, RealmPreferences>();

  constructor(bus: EventBus) {
    bus.subscribe((batch) => {
      if (!batch.some((delivery) => CHANGING_EVENTS.has(String(delivery.event.type)))) return;
      this.generation++;
      this.realms.clear();
    });
  }
}

/** One cache per event bus: every process sees every change through its bus. */
const caches = new WeakMap<EventBus, PreferenceCache>();

function cacheFor(bus: EventBus): PreferenceCache {
  let cache = caches.get(bus);
  if (!cache) {
    cache = new PreferenceCache(bus);
    caches.set(bus, cache);
  }
  return cache;
}

async function loadRealm(db: DbOrTx, realmId: number): Promise<RealmPreferences> {
  const mutes = await db
    .selectFrom('muted_user')
    .innerJoin('user_profile', 'user_profile.id', 'muted_user.user_id')
    .select(['muted_user.user_id', 'muted_user.muted_user_id'])
    .where('user_profile.realm_id', '=', realmId)
    .execute();
  const mutedBy = new Map<number, Set<number>>();
  for (const { user_id, muted_user_id } of mutes) {
    let set = mutedBy.get(muted_user_id);
    if (!set) mutedBy.set(muted_user_id, (set = new Set()));
    set.add(user_id);
  }
  const words = await db.selectFrom('alert_word').select(['user_id', 'word']).where('realm_id', '=', realmId).execute();
  const alertWords = new Map<number, string[]>();
  for (const { user_id, word } of words) {
    const list = alertWords.get(user_id);
    if (list) list.push(word.toLowerCase());
    else alertWords.set(user_id, [word.toLowerCase()]);
  }
  return { mutedBy, alertWords };
}

async function realmPreferences(db: DbOrTx, bus: EventBus, realmId: number): Promise<RealmPreferences> {
  const cache = cacheFor(bus);
  const known = cache.realms.get(realmId);
  if (known) return known;
  const generation = cache.generation;
  const loaded = await loadRealm(db, realmId);
  if (cache.generation === generation) cache.realms.set(realmId, loaded);
  return loaded;
}

/**
 * Adds to each recipient's flags (user id -> bits) what their own preferences call for:
 * read for messages from a user they muted, has_alert_word when one of their words occurs.
 * The sender's own flags are left alone.
 */
export async function applyRecipientPreferences(
  deps: { db: DbOrTx; bus: EventBus; realmId: number; senderId: number },
  flags: Map<number, number>,
  content: string,
): Promise<void> {
  const prefs = await realmPreferences(deps.db, deps.bus, deps.realmId);
  const muters = prefs.mutedBy.get(deps.senderId);
  // Lower-cased once per message, not once per recipient who keeps alert words.
  let lowered: string | undefined;
  for (const [userId, bits] of flags) {
    if (userId === deps.senderId) continue;
    let next = bits;
    if (muters?.has(userId)) next |= FLAG_BITS.read;
    const words = prefs.alertWords.get(userId);
    if (words && words.length > 0) {
      lowered ??= content.toLowerCase();
      if (words.some((word) => containsWord(lowered!, word))) next |= FLAG_BITS.has_alert_word;
    }
    if (next !== bits) flags.set(userId, next);
  }
}
