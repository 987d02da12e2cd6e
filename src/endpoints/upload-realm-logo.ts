// POST /realm/logo: the organization's logo (night=true: for the dark theme) from one uploaded
// image (administrators).
import type { RouteHandlerMethod } from 'fastify';
import { runAction } from '../actions/context.js';
import { doChangeRealmImage } from '../actions/realm-icon.js';
import { storageOf } from '../adapters/storage/services.js';
import type { Endpoint } from '../http/endpoint.js';
import { imageUploadRules, jsonBoolParam, storeBytes, uploadedImage } from '../http/image-upload.js';
import { discardSpooled, receivedUpload, uploadRoute } from '../http/upload-receive.js';
import { requireAdmin } from '../lib/permissions.js';
import { MAX_LOGO_FILE_SIZE_MIB, processRealmLogo } from '../lib/realm-icon-image.js';
import { realmImageKey } from '../lib/realm-images.js';
import type { Services } from '../services.js';

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const upload = receivedUpload(req);
    const { user, realm } = upload;
    try {
      requireAdmin(user);
      const kind = jsonBoolParam(req.query, req.body, 'night') ? 'night_logo' : 'logo';
      const file = uploadedImage(upload);
      const logo = await processRealmLogo(file.path);
      await storeBytes(storageOf(services), realmImageKey(realm.id, kind), logo, 'image/png');
      await runAction(services, user, realm, (ctx) => doChangeRealmImage(ctx, kind, true));
      return reply.send({ result: 'success', msg: '' });
    } finally {
      await discardSpooled(upload);
    }
  };
}

const uploadRealmLogo: Endpoint = {
  method: 'POST',
  url: '/realm/logo',
  params: {},
  build: handler,
  routeOptions: uploadRoute(imageUploadRules(MAX_LOGO_FILE_SIZE_MIB, 'You must upload exactly one logo.')),
};

export default uploadRealmLogo;
