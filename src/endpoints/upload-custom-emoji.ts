// POST /realm/emoji/{emoji_name}: a new custom emoji from one uploaded image (multipart).
import type { RouteHandlerMethod } from 'fastify';
import { randomBytes } from 'node:crypto';
import { runAction } from '../actions/context.js';
import { checkMayAddEmoji, checkMayOverrideBuiltIn, doAddRealmEmoji } from '../actions/realm-emoji.js';
import { storageOf } from '../adapters/storage/services.js';
import { ApiError } from '../errors.js';
import type { Endpoint } from '../http/endpoint.js';
import { imageUploadRules, storeBytes, uploadedImage } from '../http/image-upload.js';
import { p } from '../http/params.js';
import { discardSpooled, receivedUpload, uploadRoute } from '../http/upload-receive.js';
import { MAX_EMOJI_FILE_SIZE_MIB, processEmojiImage } from '../lib/emoji-image.js';
import { normaliseEmojiName } from '../lib/emoji-names.js';
import { emojiKey } from '../lib/realm-images.js';
import type { Services } from '../services.js';

const ONE_FILE = 'You must upload exactly one file.';

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const upload = receivedUpload(req);
    const { user, realm } = upload;
    try {
      const name = normaliseEmojiName((req.params as { emoji_name: string }).emoji_name);
      await checkMayAddEmoji(services.db, user, realm, name, Math.floor(services.clock.now()));
      if (!upload.file) throw new ApiError(ONE_FILE);
      checkMayOverrideBuiltIn(user, name);
      const file = uploadedImage(upload);
      const processed = await processEmojiImage(file.path);
      const base = randomBytes(8).toString('hex');
      const fileName = `${base}.${processed.extension}`;
      const stillFileName = processed.still ? `${base}.png` : null;
      const storage = storageOf(services);
      const keys = [emojiKey(realm.id, fileName)];
      try {
        await storeBytes(storage, keys[0]!, processed.image, `image/${processed.extension}`);
        if (processed.still && stillFileName) {
          keys.push(emojiKey(realm.id, stillFileName, true));
          await storeBytes(storage, keys[1]!, processed.still, 'image/png');
        }
        await runAction(services, user, realm, (ctx) => doAddRealmEmoji(ctx, { name, fileName, stillFileName }));
      } catch (error) {
        await Promise.all(keys.map((key) => storage.delete(key)));
        throw error;
      }
      return reply.send({ result: 'success', msg: '' });
    } finally {
      await discardSpooled(upload);
    }
  };
}

const uploadCustomEmoji: Endpoint = {
  method: 'POST',
  url: '/realm/emoji/:emoji_name',
  params: { emoji_name: p.pathString() },
  build: handler,
  routeOptions: uploadRoute(imageUploadRules(MAX_EMOJI_FILE_SIZE_MIB, ONE_FILE)),
};

export default uploadCustomEmoji;
