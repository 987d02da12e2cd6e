// Where the organization's images live: custom emoji and the icon and logos, in file storage
// under user_avatars/<realm id>/ and served at the reference's /user_avatars/<realm id>/... URLs.
import type { RealmEmojiRow, RealmRow } from '../types/rows.js';

export type RealmImageKind = 'icon' | 'logo' | 'night_logo';
export type RealmImageFields = Pick<RealmRow, 'id' | 'url' | 'icon_source' | 'icon_version' | 'logo_source' | 'logo_version' | 'night_logo_source' | 'night_logo_version'>;

/** Image sources: the reference's letters. */
export const ImageSource = { GRAVATAR: 'G', DEFAULT: 'D', UPLOADED: 'U' } as const;

/** The values a new organization starts with (the columns' defaults). */
export const DEFAULT_REALM_IMAGES = {
  icon_source: ImageSource.GRAVATAR,
  icon_version: 1,
  logo_source: ImageSource.DEFAULT,
  logo_version: 1,
  night_logo_source: ImageSource.DEFAULT,
  night_logo_version: 1,
};

/** Emoji file names: random hex and an extension, so that no one can list them. */
export const EMOJI_FILE_NAME = /^[0-9a-f]{16}\.(png|gif|webp)$/;
export const REALM_IMAGE_FILES: Record<string, RealmImageKind> = { 'icon.png': 'icon', 'logo.png': 'logo', 'night_logo.png': 'night_logo' };
export const DEFAULT_ICON_FILE = 'default_icon.png';

export function emojiPath(realmId: number, fileName: string, still = false): string {
  return `/user_avatars/${realmId}/emoji/images/${still ? 'still/' : ''}${fileName}`;
}

/** Storage keys sit beside message uploads, under their own prefix. */
export function emojiKey(realmId: number, fileName: string, still = false): string {
  return `user_avatars${emojiPath(realmId, fileName, still)}`;
}

export function realmImageKey(realmId: number, kind: RealmImageKind): string {
  return `user_avatars/${realmId}/realm/${kind}.png`;
}

const base = (realm: Pick<RealmRow, 'url'>) => realm.url.replace(/\/+$/, '');

export function realmIconUrl(realm: RealmImageFields): string {
  const file = realm.icon_source === ImageSource.UPLOADED ? 'icon.png' : DEFAULT_ICON_FILE;
  return `${base(realm)}/user_avatars/${realm.id}/realm/${file}?version=${realm.icon_version}`;
}

/** A logo's URL; empty while the organization shows the default one. */
export function realmLogoUrl(realm: RealmImageFields, night: boolean): string {
  const source = night ? realm.night_logo_source : realm.logo_source;
  if (source !== ImageSource.UPLOADED) return '';
  const version = night ? realm.night_logo_version : realm.logo_version;
  return `${base(realm)}/user_avatars/${realm.id}/realm/${night ? 'night_logo' : 'logo'}.png?version=${version}`;
}

/** The register state's realm_icon_* and realm_*logo_* fields. */
export function realmImageState(realm: RealmImageFields) {
  return {
    realm_icon_url: realmIconUrl(realm),
    realm_icon_source: realm.icon_source,
    realm_logo_url: realmLogoUrl(realm, false),
    realm_logo_source: realm.logo_source,
    realm_night_logo_url: realmLogoUrl(realm, true),
    realm_night_logo_source: realm.night_logo_source,
  };
}

/** The data of the realm update_dict event for one image (without the realm_ prefix). */
export function realmImageEventData(realm: RealmImageFields, kind: RealmImageKind): Record<string, string> {
  const state = realmImageState(realm);
  if (kind === 'icon') return { icon_url: state.realm_icon_url, icon_source: state.realm_icon_source };
  if (kind === 'logo') return { logo_url: state.realm_logo_url, logo_source: state.realm_logo_source };
  return { night_logo_url: state.realm_night_logo_url, night_logo_source: state.realm_night_logo_source };
}

export interface RealmEmojiDict {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

export function realmEmojiDict(row: RealmEmojiRow): RealmEmojiDict {
  return {
    id: String(row.id),
    name: row.name,
    source_url: emojiPath(row.realm_id, row.file_name),
    still_url: row.still_file_name === null ? null : emojiPath(row.realm_id, row.still_file_name, true),
    deactivated: row.deactivated === 1,
    author_id: row.author_id,
  };
}
