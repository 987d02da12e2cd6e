// POST /realm/icon: the organization's icon from one uploaded image (administrators).
import type { RouteHandlerMethod } from 'fastify';
import { runAction } from '../actions/context.js';
import { doChangeRealmImage } from '../actions/realm-icon.js';
import { storageOf } from '../adapters/storage/services.js';
import type { Endpoint } from '../http/endpoint.js';
import { singleImageFile, storeBytes } from '../http/image-upload.js';
import { authenticateUpload, discardSpooled, receivedUpload, SPOOL_UPLOADS } from '../http/upload-receive.js';
import { requireAdmin } from '../lib/permissions.js';
import { MAX_ICON_FILE_SIZE_MIB, processRealmIcon } from '../lib/realm-icon-image.js';
import { realmIconUrl, realmImageKey } from '../lib/realm-images.js';
import type { Services } from '../services.js';

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const { user, realm, parts } = receivedUpload(req);
    try {
      requireAdmin(user);
      const file = singleImageFile(services, parts, MAX_ICON_FILE_SIZE_MIB, 'You must upload exactly one icon.');
      const icon = await processRealmIcon(file.path);
      await storeBytes(storageOf(services), realmImageKey(realm.id, 'icon'), icon, 'image/png');
      const changed = await runAction(services, user, realm, (ctx) => doChangeRealmImage(ctx, 'icon', true));
      return reply.send({ result: 'success', msg: '', icon_url: realmIconUrl(changed) });
    } finally {
      await discardSpooled(parts);
    }
  };
}

const uploadRealmIcon: Endpoint = {
  method: 'POST',
  url: '/realm/icon',
  params: {},
  build: handler,
  routeOptions: (services, mode) => ({ config: SPOOL_UPLOADS, onRequest: authenticateUpload(services, mode) }),
};

export default uploadRealmIcon;
