// PATCH /bots/{bot_id}: the bot's owner or an administrator changes its name, role, owner,
// default streams, outgoing webhook or (one file, multipart) avatar.
import { checkUpdateBot } from '../actions/bots.js';
import { runAction } from '../actions/context.js';
import { p } from '../http/params.js';
import { botRoute, jsonUrl } from './bot-params.js';

const params = {
  bot_id: p.pathInt(),
  full_name: p.string().optional(),
  role: p.role().optional(),
  bot_owner_id: p.int().optional(),
  service_payload_url: jsonUrl().optional(),
  service_interface: p.int().default(1),
  default_sending_stream: p.string().optional(),
  default_events_register_stream: p.string().optional(),
  default_all_public_streams: p.bool().optional(),
};

export default botRoute({ method: 'PATCH', url: '/bots/:bot_id' }, params, (services, { user, realm, values, images }) =>
  runAction(services, user, realm, (ctx) =>
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
  ),
);
