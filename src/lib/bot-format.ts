// A bot as the reference describes it to those who administer it (realm_bots, realm_bot events).
import type { UserRow } from '../types/rows.js';
import { avatarUrl } from './user-format.js';

export interface BotDict {
  user_id: number;
  full_name: string;
  api_key: string;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  avatar_url: string;
  owner_id: number | null;
  services: unknown[];
  email: string;
  bot_type: number | null;
  is_active: boolean;
}

/** A bot as realm_bots and realm_bot/add carry it. Confab has no default streams or services for bots yet. */
export function botDict(bot: UserRow): BotDict {
  return {
    user_id: bot.id,
    full_name: bot.full_name,
    api_key: bot.api_key,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    avatar_url: avatarUrl(bot, false)!,
    owner_id: bot.bot_owner_id,
    services: [],
    email: bot.email,
    bot_type: bot.bot_type,
    is_active: Boolean(bot.is_active),
  };
}
