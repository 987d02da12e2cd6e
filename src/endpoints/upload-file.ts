// POST /user_uploads: one file (multipart), stored and recorded as the user's attachment.
import type { RouteHandlerMethod } from 'fastify';
import { randomBytes } from 'node:crypto';
import { checkUploadQuota, doCreateAttachment } from '../actions/attachments.js';
import { runAction } from '../actions/context.js';
import { queueThumbnail } from '../actions/thumbnails.js';
import { storageOf } from '../adapters/storage/services.js';
import { ApiError } from '../errors.js';
import type { Endpoint } from '../http/endpoint.js';
import { discardSpooled, receivedUpload, uploadRoute, type UploadRules } from '../http/upload-receive.js';
import { probeImage } from '../lib/thumbnails.js';
import { displayName, storedContentType, storedName } from '../lib/uploads.js';
import type { Services } from '../services.js';

const UPLOAD_RULES: UploadRules = {
  oneFileError: 'You may only upload one file at a time',
  limitMib: (services) => services.config.maxFileUploadSizeMib,
  tooLargeError: (limitMib) => `File is larger than this server's configured maximum upload size (${limitMib} MiB).`,
};

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const upload = receivedUpload(req);
    const { user, realm } = upload;
    try {
      // More than one file was refused as it arrived, as was one past the limit (see UPLOAD_RULES).
      if (!upload.file) throw new ApiError('You must specify a file to upload');
      const { file, head, fileName, mimeType } = upload.file;
      // A first look, before the file is stored; the space is reserved as the attachment is recorded.
      await checkUploadQuota(services, services.db, realm.id, file.size);
      const name = displayName(fileName);
      const contentType = storedContentType(mimeType, name, head);
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
      await discardSpooled(upload);
    }
  };
}

const uploadFile: Endpoint = {
  method: 'POST',
  url: '/user_uploads',
  params: {},
  build: handler,
  routeOptions: uploadRoute(UPLOAD_RULES),
};

export default uploadFile;
