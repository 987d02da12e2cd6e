// POST /user_uploads: one file (multipart), stored and recorded as the user's attachment.
import type { RouteHandlerMethod } from 'fastify';
import { randomBytes } from 'node:crypto';
import { doCreateAttachment } from '../actions/attachments.js';
import { runAction } from '../actions/context.js';
import { queueThumbnail } from '../actions/thumbnails.js';
import { storageOf } from '../adapters/storage/services.js';
import { ApiError } from '../errors.js';
import type { Endpoint } from '../http/endpoint.js';
import { authenticateUpload, discardSpooled, receivedUpload, SPOOL_UPLOADS } from '../http/upload-receive.js';
import { probeImage } from '../lib/thumbnails.js';
import { displayName, storedContentType, storedName } from '../lib/uploads.js';
import { uploadSpaceUsed } from '../queries/attachments.js';
import type { Services } from '../services.js';

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const { user, realm, parts } = receivedUpload(req);
    try {
      if (parts.length === 0) throw new ApiError('You must specify a file to upload');
      if (parts.length > 1) throw new ApiError('You may only upload one file at a time');
      const part = parts[0]!;
      if (!part.result.ok) {
        throw new ApiError(`Uploaded file is larger than the allowed limit of ${services.config.maxFileUploadSizeMib} MiB`);
      }
      const { file, head } = part.result;
      const quota = services.config.uploadQuotaMib * 1024 * 1024;
      if (quota > 0 && (await uploadSpaceUsed(services.db, realm.id)) + file.size > quota) {
        throw new ApiError("Upload would exceed your organization's upload quota.", { code: 'REALM_UPLOAD_QUOTA' });
      }
      const name = displayName(part.fileName);
      const contentType = storedContentType(part.mimeType, name, head);
      const pathId = `${realm.id}/${randomBytes(1).toString('hex')}/${randomBytes(18).toString('base64url')}/${storedName(name)}`;
      // Header only, from the local spool file: whether messages may preview it.
      const image = await probeImage(file.path, contentType);
      const storage = storageOf(services);
      await storage.putFile(pathId, file, contentType);
      try {
        const row = await runAction(services, user, realm, (ctx) => doCreateAttachment(ctx, { fileName: name, pathId, contentType, size: file.size, image }));
        if (image) queueThumbnail(services, row, image);
      } catch (error) {
        await storage.delete(pathId);
        throw error;
      }
      const uri = `/user_uploads/${encodeURI(pathId)}`;
      return reply.send({ result: 'success', msg: '', uri, url: uri });
    } finally {
      await discardSpooled(parts);
    }
  };
}

const uploadFile: Endpoint = {
  method: 'POST',
  url: '/user_uploads',
  params: {},
  build: handler,
  routeOptions: (services, mode) => ({ config: SPOOL_UPLOADS, onRequest: authenticateUpload(services, mode) }),
};

export default uploadFile;
