// POST /bots: create a bot owned by the requester, optionally with an avatar (one file, multipart);
// answers its id, API key and defaults.
import type { RouteHandlerMethod } from 'fastify';
import { z } from 'zod';
import { storeAvatarImages } from '../actions/avatar-files.js';
import { checkCreateBot } from '../actions/bot-create.js';
import { runAction } from '../actions/context.js';
import type { Endpoint } from '../http/endpoint.js';
import { collectRaw, p, parseParams } from '../http/params.js';
import { imageUploadRules } from '../http/image-upload.js';
import { discardSpooled, receivedUpload, uploadRoute } from '../http/upload-receive.js';
import { avatarImages, MAX_AVATAR_FILE_SIZE_MIB } from '../lib/images.js';
import { BotType } from '../lib/roles.js';
import { avatarUrl } from '../lib/user-format.js';
import { botDictOf } from '../queries/bots.js';
import type { Services } from '../services.js';
import { jsonUrl } from './bot-params.js';

const params = {
  full_name: p.string(),
  short_name: p.string(),
  bot_type: p.int().default(BotType.GENERIC),
  payload_url: jsonUrl().default(''),
  service_name: p.string().optional(),
  config_data: p.json(z.record(z.string(), z.string())).default({}),
  interface_type: p.int().default(1),
  default_sending_stream: p.string().optional(),
  default_events_register_stream: p.string().optional(),
  default_all_public_streams: p.bool().optional(),
};

function handler(services: Services): RouteHandlerMethod {
  return async (req, reply) => {
    const upload = receivedUpload(req);
    const { user, realm } = upload;
    try {
      const { values, ignored } = parseParams(params, collectRaw(req.query, req.body), {});
      // Read before anything is created, so an unusable image refuses the whole request.
      const images = upload.file ? await avatarImages(upload.file.file.path, upload.file.head) : undefined;
      const body = await runAction(services, user, realm, async (ctx) => {
        const bot = await checkCreateBot(ctx, {
          fullName: values.full_name,
          shortName: values.short_name,
          botType: values.bot_type,
          payloadUrl: values.payload_url,
          serviceName: values.service_name,
          interfaceType: values.interface_type,
          defaultSendingStream: values.default_sending_stream,
          defaultEventsRegisterStream: values.default_events_register_stream,
          defaultAllPublicStreams: values.default_all_public_streams,
          storeAvatar: images ? (botId) => storeAvatarImages(services, realm.id, botId, images) : undefined,
        });
        const dict = await botDictOf(ctx.tx, bot);
        return {
          user_id: bot.id,
          api_key: bot.api_key,
          avatar_url: avatarUrl(bot, false),
          default_sending_stream: dict.default_sending_stream,
          default_events_register_stream: dict.default_events_register_stream,
          default_all_public_streams: dict.default_all_public_streams,
        };
      });
      return reply.send({ result: 'success', msg: '', ...body, ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}) });
    } finally {
      await discardSpooled(upload);
    }
  };
}

const createBot: Endpoint = {
  method: 'POST',
  url: '/bots',
  params,
  build: handler,
  // Authenticated before any of the body is read; an avatar is spooled to disk, never held in memory.
  routeOptions: uploadRoute(imageUploadRules(MAX_AVATAR_FILE_SIZE_MIB, 'You may only upload one file at a time')),
};

export default createBot;
