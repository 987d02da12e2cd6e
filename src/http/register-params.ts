// The parameters that describe a new event queue, shared by POST /register and GET /events
// (which registers a queue itself when called without one).
import { z } from 'zod';
import { ApiError } from '../errors.js';
import type { RegisterRequest } from '../events/state/register.js';
import type { ClientCapabilities } from '../events/types.js';
import { type ParamValues, p } from './params.js';
import { MAX_NARROW_TERMS } from '../lib/limits.js';
import type { NarrowTerm } from '../lib/narrow/types.js';

/** Operators a queue's narrow may use; it filters message events in memory. */
const QUEUE_NARROW_OPERATORS = new Set(['channel', 'stream', 'topic', 'sender', 'is']);

const eventTypeList = z.array(z.string()).nullable();

const narrowPairs = z.array(
  z.unknown().transform((element, ctx): NarrowTerm => {
    if (!Array.isArray(element) || element.length !== 2 || element.some((part) => typeof part !== 'string')) {
      ctx.addIssue({ code: 'custom', message: 'Invalid {var_name}: Value error, element is not a string pair', input: element });
      return z.NEVER;
    }
    return { operator: element[0] as string, operand: element[1] as string, negated: false };
  }),
);

function checkQueueNarrow(terms: NarrowTerm[]): NarrowTerm[] {
  for (const term of terms) {
    if (!QUEUE_NARROW_OPERATORS.has(term.operator)) throw new ApiError(`Operator ${term.operator} not supported.`);
    if (term.operator === 'is' && term.operand === 'followed') throw new ApiError('Operand followed not supported.');
  }
  return terms;
}

const OPTIONAL_CAPABILITIES = [
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
] as const;

// Unknown capability names are ignored: clients newer than the server send more of them.
const capabilitiesSchema = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    if (!('notification_settings_null' in value)) {
      ctx.addIssue({ code: 'custom', message: '{var_name} field is missing', path: ['notification_settings_null'], input: value });
      return;
    }
    for (const name of ['notification_settings_null', ...OPTIONAL_CAPABILITIES]) {
      if (name in value && typeof value[name] !== 'boolean') {
        ctx.addIssue({ code: 'custom', message: '{var_name} is not a boolean', path: [name], input: value[name] });
      }
    }
  })
  .transform((value): ClientCapabilities => {
    const flags = { notification_settings_null: value.notification_settings_null === true } as ClientCapabilities;
    for (const name of OPTIONAL_CAPABILITIES) flags[name] = value[name] === true;
    return flags;
  });

const DEFAULT_CAPABILITIES: ClientCapabilities = {
  notification_settings_null: false,
  bulk_message_deletion: false,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: false,
  user_settings_object: false,
  linkifier_url_template: false,
};

export const queueParams = {
  event_types: p.json(eventTypeList).default(null),
  narrow: p.json(narrowPairs, { maxItems: MAX_NARROW_TERMS }).then(checkQueueNarrow).default([]),
  client_capabilities: p.json(capabilitiesSchema).default(DEFAULT_CAPABILITIES),
  apply_markdown: p.bool().default(false),
  client_gravatar: p.bool().default(true),
  slim_presence: p.bool().default(false),
  all_public_streams: p.bool().default(false),
  queue_lifespan_secs: p.int({ min: 0 }).default(0).alias('lifespan_secs'),
};

export const registerParams = {
  ...queueParams,
  fetch_event_types: p.json(eventTypeList).default(null),
  include_subscribers: p.bool().default(false),
};

/** The queue-describing part of a register request, from parsed parameters. */
export function queueRequest(params: ParamValues<typeof queueParams>): Omit<RegisterRequest, 'fetchEventTypes' | 'includeSubscribers'> {
  return {
    eventTypes: params.event_types,
    narrow: params.narrow,
    capabilities: params.client_capabilities,
    applyMarkdown: params.apply_markdown,
    clientGravatar: params.client_gravatar,
    allPublicStreams: params.all_public_streams,
    queueLifespanSecs: params.queue_lifespan_secs,
    slimPresence: params.slim_presence,
  };
}
