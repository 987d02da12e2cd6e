// A bot as the reference describes it to those who administer it (realm_bots, realm_bot events).
import type { BotServiceRow, RealmRow, UserRow } from '../types/rows.js';
import { avatarUrl } from './user-format.js';

export interface BotServiceDict {
  base_url: string;
  interface: number;
  token: string;
}

export interface BotDict {
  user_id: number;
  full_name: string;
  api_key: string;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  avatar_url: string;
  owner_id: number | null;
  services: BotServiceDict[];
  email: string;
  bot_type: number | null;
  is_active: boolean;
}

export interface BotDetails {
  defaultSendingStream: string | null;
  defaultEventsRegisterStream: string | null;
  services: BotServiceRow[];
}

export const serviceDict = (s: BotServiceRow): BotServiceDict => ({ base_url: s.base_url, interface: s.interface, token: s.token });

/** A bot as realm_bots and realm_bot/add carry it. Confab runs no embedded bots, so services are webhooks. */
export function botDict(bot: UserRow, details: BotDetails): BotDict {
  return {
    user_id: bot.id,
    full_name: bot.full_name,
    api_key: bot.api_key,
    default_sending_stream: details.defaultSendingStream,
    default_events_register_stream: details.defaultEventsRegisterStream,
    default_all_public_streams: Boolean(bot.default_all_public_streams),
    avatar_url: avatarUrl(bot, false)!,
    owner_id: bot.bot_owner_id,
    services: details.services.map(serviceDict),
    email: bot.email,
    bot_type: bot.bot_type,
    is_active: Boolean(bot.is_active),
  };
}

/** The domain of bot addresses: the organization's host name, as realm_bot_domain reports it. */
export function botDomain(realm: Pick<RealmRow, 'url'>): string {
  try {
    return new URL(realm.url).hostname;
  } catch {
    return '';
  }
}
