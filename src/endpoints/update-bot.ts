// PATCH /bots/{bot_id}: the bot's owner or an administrator changes its name, role, owner,
// default streams, outgoing webhook or (one file, multipart) avatar.
import type { RouteHandlerMethod } from 'fastify';
import { avatarImagesOf } from '../actions/avatar-files.js';
import { checkUpdateBot } from '../actions/bots.js';
import { runAction } from '../actions/context.js';
import { ApiError } from '../errors.js';
import type { Endpoint } from '../http/endpoint.js';
import { collectRaw, p, parseParams } from '../http/params.js';
import { authenticateUpload, discardSpooled, receivedUpload, SPOOL_UPLOADS } from '../http/upload-receive.js';
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
    const { user, realm, parts } = receivedUpload(req);
    try {
      const { values, ignored } = parseParams(params, collectRaw(req.query, req.body), req.params as Record<string, string>);
      if (parts.length > 1) throw new ApiError('You may only upload one file at a time');
      const [part] = parts;
      const images = part && (await avatarImagesOf(services, part.result.ok ? { file: part.result.file, head: part.result.head } : { file: null, head: Buffer.alloc(0) }));
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
      await discardSpooled(parts);
    }
  };
}

const updateBot: Endpoint = {
  method: 'PATCH',
  url: '/bots/:bot_id',
  params,
  build: handler,
  // Authenticated before any of the body is read; an avatar is spooled to disk, never held in memory.
  routeOptions: (services, mode) => ({ config: SPOOL_UPLOADS, onRequest: authenticateUpload(services, mode) }),
};

export default updateBot;
