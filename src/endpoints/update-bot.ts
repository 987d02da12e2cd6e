// PATCH /bots/{bot_id}: the bot's owner or an administrator changes its name, role, owner,
// default streams or outgoing webhook.
import { checkUpdateBot } from '../actions/bots.js';
import { runAction } from '../actions/context.js';
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { ROLE_VALUES } from '../lib/roles.js';
import { jsonUrl } from './bot-params.js';

export default endpoint({
  method: 'PATCH',
  url: '/bots/:bot_id',
  params: {
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
  },
  async handler({ params, user, realm, services }) {
    return runAction(services, user, realm, (ctx) =>
      checkUpdateBot(ctx, params.bot_id, {
        fullName: params.full_name,
        role: params.role,
        botOwnerId: params.bot_owner_id,
        servicePayloadUrl: params.service_payload_url,
        serviceInterface: params.service_interface,
        defaultSendingStream: params.default_sending_stream,
        defaultEventsRegisterStream: params.default_events_register_stream,
        defaultAllPublicStreams: params.default_all_public_streams,
      }),
    );
  },
});
