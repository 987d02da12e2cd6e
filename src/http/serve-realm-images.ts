// Serving the organization's images at the reference's URLs, to anyone (as the reference does:
// login pages show the icon, and emoji appear wherever messages are shown):
//   GET /user_avatars/{realm_id}/emoji/images/{file}         a custom emoji
//   GET /user_avatars/{realm_id}/emoji/images/still/{file}   its first frame, when animated
//   GET /user_avatars/{realm_id}/realm/{icon,logo,night_logo}.png, default_icon.png
// Only image types go out, never sniffed, under a Content-Security-Policy that lets nothing run.
// Emoji names are random and never reused, so emoji are cached for good; icons carry a
// ?version= that changes with each upload, so they are cached for a while.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { storageOf } from '../adapters/storage/services.js';
import { NotFoundError } from '../errors.js';
import { drawDefaultIcon } from '../lib/realm-icon-image.js';
import { DEFAULT_ICON_FILE, EMOJI_FILE_NAME, emojiKey, REALM_IMAGE_FILES, realmImageKey } from '../lib/realm-images.js';
import type { Services } from '../services.js';

const IMAGE_CSP = "default-src 'none'; sandbox";
const CONTENT_TYPES: Record<string, string> = { png: 'image/png', gif: 'image/gif', webp: 'image/webp' };
const FOREVER = 'public, max-age=31536000, immutable';
const AN_HOUR = 'public, max-age=3600';
/** Default icons drawn so far, by realm id (a few hundred bytes each; the cap is generous). */
const defaultIcons = new Map<number, Buffer>();
const MAX_DEFAULT_ICONS = 1000;

class ImageNotFoundError extends NotFoundError {
  constructor() {
    super('File not found');
  }
}

function realmIdOf(raw: string): number {
  if (!/^\d{1,10}$/.test(raw)) throw new ImageNotFoundError();
  return Number(raw);
}

function imageHeaders(reply: FastifyReply, contentType: string, cache: string): void {
  reply.headers({
    'content-type': contentType,
    'x-content-type-options': 'nosniff',
    'content-security-policy': IMAGE_CSP,
    'content-disposition': 'inline',
    'cache-control': cache,
  });
}

async function sendStored(services: Services, reply: FastifyReply, key: string, contentType: string, cache: string) {
  const object = await storageOf(services).get(key);
  if (!object) throw new ImageNotFoundError();
  imageHeaders(reply, contentType, cache);
  return reply.header('content-length', object.size).send(object.body);
}

async function defaultIcon(realmId: number): Promise<Buffer> {
  let icon = defaultIcons.get(realmId);
  if (!icon) {
    icon = await drawDefaultIcon(`realm-${realmId}`);
    if (defaultIcons.size >= MAX_DEFAULT_ICONS) defaultIcons.clear();
    defaultIcons.set(realmId, icon);
  }
  return icon;
}

export function registerRealmImageRoutes(app: FastifyInstance, services: Services): void {
  const emoji = (still: boolean) => async (req: { params: unknown }, reply: FastifyReply) => {
    const { realm_id: realmId, file } = req.params as { realm_id: string; file: string };
    const match = EMOJI_FILE_NAME.exec(file);
    if (!match || (still && match[1] !== 'png')) throw new ImageNotFoundError();
    return sendStored(services, reply, emojiKey(realmIdOf(realmId), file, still), CONTENT_TYPES[match[1]!]!, FOREVER);
  };
  app.get('/user_avatars/:realm_id/emoji/images/:file', emoji(false));
  app.get('/user_avatars/:realm_id/emoji/images/still/:file', emoji(true));
  app.get('/user_avatars/:realm_id/realm/:file', async (req, reply) => {
    const params = req.params as { realm_id: string; file: string };
    const realmId = realmIdOf(params.realm_id);
    if (params.file === DEFAULT_ICON_FILE) {
      imageHeaders(reply, 'image/png', AN_HOUR);
      return reply.send(await defaultIcon(realmId));
    }
    const kind = REALM_IMAGE_FILES[params.file];
    if (!kind) throw new ImageNotFoundError();
    return sendStored(services, reply, realmImageKey(realmId, kind), 'image/png', AN_HOUR);
  });
}
