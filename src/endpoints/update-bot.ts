// PATCH /bots/{bot_id}: the bot's owner or an administrator changes its name, role, owner,
// default streams, outgoing webhook or (one file, multipart) avatar.
import type { RouteHandlerMethod } from 'fastify';
import { checkUpdateBot } from '../actions/bots.js';
import { runAction } from '../actions/context.js';
import { ApiError } from '../errors.js';
import type { Endpoint } from '../http/endpoint.js';
import { collectRaw, p, parseParams } from '../http/params.js';
import { imageUploadRules } from '../http/image-upload.js';
import { discardSpooled, receivedUpload, uploadRoute } from '../http/upload-receive.js';
import { avatarImages, MAX_AVATAR_FILE_SIZE_MIB } from '../lib/images.js';
import { ROLE_VALUES } from '../lib/roles.js';
import type { Services } from '../services.js';
import { jsonUrl } from './bot-params.js';

const params = {
  bot_id: p.pathInt(),
  full_name: p.string().optional(),
  role: p
    .int()
    .then((role, name) => {
      if (!ROLE_VALUES.includes(role)) throw new ApiError(`Invalid ${name}`);
      return role;
    })
    .optional(),
  bot_owner_id: p.int().optional(),
  service_payload_url: jsonUrl().optional(),
  service_interface: p.int().default(1),
  default_sending_stream: p.string().optional(),
  default_events_register_stream: p.string().optional(),
  default_all_public_streams: p.bool().optional(),
};

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const upload = receivedUpload(req);
    const { user, realm } = upload;
    try {
      const { values, ignored } = parseParams(params, collectRaw(req.query, req.body), req.params as Record<string, string>);
      const images = upload.file ? await avatarImages(upload.file.file.path, upload.file.head) : undefined;
      const body = await runAction(services, user, realm, (ctx) =>
        checkUpdateBot(ctx, values.bot_id, {
          fullName: values.full_name,
          role: values.role,
          botOwnerId: values.bot_owner_id,
          servicePayloadUrl: values.service_payload_url,
          serviceInterface: values.service_interface,
          defaultSendingStream: values.default_sending_stream,
          defaultEventsRegisterStream: values.default_events_register_stream,
          defaultAllPublicStreams: values.default_all_public_streams,
          avatarImages: images,
        }),
      );
      return reply.send({ result: 'success', msg: '', ...body, ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}) });
    } finally {
      await discardSpooled(upload);
    }
  };
}

const updateBot: Endpoint = {
  method: 'PATCH',
  url: '/bots/:bot_id',
  params,
  build: handler,
  // Authenticated before any of the body is read; an avatar is spooled to disk, never held in memory.
  routeOptions: uploadRoute(imageUploadRules(MAX_AVATAR_FILE_SIZE_MIB, 'You may only upload one file at a time')),
};

export default updateBot;
