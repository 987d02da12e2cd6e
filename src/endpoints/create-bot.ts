// POST /bots: create a bot owned by the requester, optionally with an avatar (one file, multipart);
// answers its id, API key and defaults.
import { z } from 'zod';
import { storeAvatarImages } from '../actions/avatar-files.js';
import { checkCreateBot } from '../actions/bot-create.js';
import { runAction } from '../actions/context.js';
import { p } from '../http/params.js';
import { BotType } from '../lib/roles.js';
import { avatarUrl } from '../lib/user-format.js';
import { botDictOf } from '../queries/bots.js';
import { botRoute, jsonUrl } from './bot-params.js';

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

export default botRoute({ method: 'POST', url: '/bots' }, params, (services, { user, realm, values, images }) =>
  runAction(services, user, realm, async (ctx) => {
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
  }),
);
