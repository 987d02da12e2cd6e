// POST /invites/multiuse: create a reusable invitation link (create_multiuse_invite_group).
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { checkCreateMultiuseInvite } from '../actions/invites.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { DEFAULT_INVITE_MINUTES, MAX_INVITE_MINUTES } from '../lib/invites.js';
import { Role } from '../lib/roles.js';

export default endpoint({
  method: 'POST',
  url: '/invites/multiuse',
  params: {
    invite_expires_in_minutes: p
      .json(z.number().int().max(MAX_INVITE_MINUTES).nullable())
      .default(DEFAULT_INVITE_MINUTES),
    invite_as: p.role().default(Role.MEMBER),
    stream_ids: p.json(z.array(z.number().int())).default([]),
  },
  async handler({ params, user, realm, services }) {
    const link = await runAction(services, user, realm, (ctx) =>
      checkCreateMultiuseInvite(ctx, {
        invitedAs: params.invite_as,
        expiresInMinutes: params.invite_expires_in_minutes,
        streamIds: params.stream_ids,
      }),
    );
    return { invite_link: link };
  },
});
