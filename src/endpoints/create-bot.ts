// POST /bots: create a bot owned by the requester; answers its id, API key and defaults.
import { z } from 'zod';
import { checkCreateBot } from '../actions/bot-create.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { BotType } from '../lib/roles.js';
import { avatarUrl } from '../lib/user-format.js';
import { botDictOf } from '../queries/bots.js';
import { jsonUrl } from './bot-params.js';

export default endpoint({
  method: 'POST',
  url: '/bots',
  params: {
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
  },
  async handler({ params, user, realm, services }) {
    return runAction(services, user, realm, async (ctx) => {
      const bot = await checkCreateBot(ctx, {
        fullName: params.full_name,
        shortName: params.short_name,
        botType: params.bot_type,
        payloadUrl: params.payload_url,
        serviceName: params.service_name,
        interfaceType: params.interface_type,
        defaultSendingStream: params.default_sending_stream,
        defaultEventsRegisterStream: params.default_events_register_stream,
        defaultAllPublicStreams: params.default_all_public_streams,
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
  },
});
