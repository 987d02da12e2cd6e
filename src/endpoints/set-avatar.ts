// POST /users/me/avatar: one image (multipart), stored as the user's avatar in two sizes.
import type { RouteHandlerMethod } from 'fastify';
import { setAvatarFromUpload } from '../actions/avatar-files.js';
import type { Endpoint } from '../http/endpoint.js';
import { imageUploadRules } from '../http/image-upload.js';
import { discardSpooled, receivedUpload, uploadRoute } from '../http/upload-receive.js';
import { MAX_AVATAR_FILE_SIZE_MIB } from '../lib/images.js';
import { avatarUrl } from '../lib/user-format.js';
import type { Services } from '../services.js';

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const upload = receivedUpload(req);
    let updated;
    try {
      updated = await setAvatarFromUpload(services, upload.user, upload.realm, upload.file);
    } finally {
      // Before the answer goes out, so a client that has it finds nothing of its upload left.
      await discardSpooled(upload);
    }
    return reply.send({ result: 'success', msg: '', avatar_url: avatarUrl(updated, false) });
  };
}

const setAvatar: Endpoint = {
  method: 'POST',
  url: '/users/me/avatar',
  params: {},
  build: handler,
  // Authenticated before any of the body is read; the file is spooled to disk, never held in memory.
  routeOptions: uploadRoute(imageUploadRules(MAX_AVATAR_FILE_SIZE_MIB, 'You must upload exactly one avatar.')),
};

export default setAvatar;
