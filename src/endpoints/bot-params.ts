// Parameter forms and the request handling shared by the bot endpoints.
import type { RouteHandlerMethod } from 'fastify';
import { z } from 'zod';
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import type { Endpoint } from '../http/endpoint.js';
import { imageUploadRules } from '../http/image-upload.js';
import { collectRaw, p, type ParamShape, type ParamValues, parseParams } from '../http/params.js';
import { discardSpooled, receivedUpload, uploadRoute } from '../http/upload-receive.js';
import { type AvatarImages, avatarImages, MAX_AVATAR_FILE_SIZE_MIB } from '../lib/images.js';
import { isUrl } from '../lib/profile-fields.js';
import type { Services } from '../services.js';

/** A web address sent JSON-encoded, as the reference's bot parameters take it. */
export const jsonUrl = () =>
  p.json(z.string()).then((value, name) => {
    if (!isUrl(value)) throw new ApiError(`${name} is not a URL`);
    return value;
  });

export interface BotRequest<S extends ParamShape> {
  user: UserRow;
  realm: RealmRow;
  values: ParamValues<S>;
  /** The uploaded avatar, already read as an image; undefined when none was sent. */
  images: AvatarImages | undefined;
}

/**
 * A bot route that may carry an avatar (one file, multipart): authenticated before any of the body
 * is read, the file spooled to disk and read as an image before `work` runs (so an unusable image
 * refuses the whole request), and the spool removed whatever happens.
 */
export function botRoute<S extends ParamShape>(
  route: Pick<Endpoint, 'method' | 'url'>,
  params: S,
  work: (services: Services, request: BotRequest<S>) => Promise<Record<string, unknown>>,
): Endpoint {
  const build = (services: Services): RouteHandlerMethod => async (req, reply) => {
    const upload = receivedUpload(req);
    try {
      const { values, ignored } = parseParams(params, collectRaw(req.query, req.body), req.params as Record<string, string>);
      const images = upload.file ? await avatarImages(upload.file.file.path, upload.file.head) : undefined;
      const body = await work(services, { user: upload.user, realm: upload.realm, values, images });
      return reply.send({ result: 'success', msg: '', ...body, ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}) });
    } finally {
      await discardSpooled(upload);
    }
  };
  return { ...route, params, build, routeOptions: uploadRoute(imageUploadRules(MAX_AVATAR_FILE_SIZE_MIB, 'You may only upload one file at a time')) };
}
