// POST /users/me/avatar: one image (multipart), stored as the user's avatar in two sizes.
import type { RouteHandlerMethod } from 'fastify';
import { setAvatarFromUpload } from '../actions/avatar-files.js';
import type { Endpoint } from '../http/endpoint.js';
import { authenticateUpload, discardSpooled, receivedUpload, SPOOL_UPLOADS } from '../http/upload-receive.js';
import { avatarUrl } from '../lib/user-format.js';
import type { Services } from '../services.js';

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const { user, realm, parts } = receivedUpload(req);
    const uploads = parts.map((part) => (part.result.ok ? { file: part.result.file, head: part.result.head } : { file: null, head: Buffer.alloc(0) }));
    let updated;
    try {
      updated = await setAvatarFromUpload(services, user, realm, uploads);
    } finally {
      // Before the answer goes out, so a client that has it finds nothing of its upload left.
      await discardSpooled(parts);
    }
    return reply.send({ result: 'success', msg: '', avatar_url: avatarUrl(updated, false) });
  };
}

const setAvatar: Endpoint = {
  method: 'POST',
  url: '/users/me/avatar',
  params: {},
  build: handler,
  // Authenticated before any of the body is read; file parts are spooled to disk, never held in memory.
  routeOptions: (services, mode) => ({ config: SPOOL_UPLOADS, onRequest: authenticateUpload(services, mode) }),
};

export default setAvatar;
