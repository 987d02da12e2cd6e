// POST /realm/icon: the organization's icon from one uploaded image (administrators).
import type { RouteHandlerMethod } from 'fastify';
import { runAction } from '../actions/context.js';
import { doChangeRealmImage } from '../actions/realm-icon.js';
import { storageOf } from '../adapters/storage/services.js';
import type { Endpoint } from '../http/endpoint.js';
import { imageUploadRules, storeBytes, uploadedImage } from '../http/image-upload.js';
import { discardSpooled, receivedUpload, uploadRoute } from '../http/upload-receive.js';
import { requireAdmin } from '../lib/permissions.js';
import { MAX_ICON_FILE_SIZE_MIB, processRealmIcon } from '../lib/realm-icon-image.js';
import { realmIconUrl, realmImageKey } from '../lib/realm-images.js';
import type { Services } from '../services.js';

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const upload = receivedUpload(req);
    const { user, realm } = upload;
    try {
      requireAdmin(user);
      const file = uploadedImage(upload);
      const icon = await processRealmIcon(file.path);
      await storeBytes(storageOf(services), realmImageKey(realm.id, 'icon'), icon, 'image/png');
      const changed = await runAction(services, user, realm, (ctx) => doChangeRealmImage(ctx, 'icon', true));
      return reply.send({ result: 'success', msg: '', icon_url: realmIconUrl(changed) });
    } finally {
      await discardSpooled(upload);
    }
  };
}

const uploadRealmIcon: Endpoint = {
  method: 'POST',
  url: '/realm/icon',
  params: {},
  build: handler,
  routeOptions: uploadRoute(imageUploadRules(MAX_ICON_FILE_SIZE_MIB, 'You must upload exactly one icon.')),
};

export default uploadRealmIcon;
