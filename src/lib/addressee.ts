// Reads POST /messages' `type`, `to` and `topic` into who a message is for. No lookups here.
import { ApiError } from '../errors.js';
import { MAX_DM_RECIPIENTS, tooManyItems } from './limits.js';

export type Addressee =
  | { kind: 'stream'; streamId: number; streamName?: undefined; topic: string }
  | { kind: 'stream'; streamId?: undefined; streamName: string; topic: string }
  | { kind: 'direct'; userIds: number[]; emails?: undefined }
  | { kind: 'direct'; userIds?: undefined; emails: string[] };

const STREAM_TYPES = new Set(['stream', 'channel']);
const DIRECT_TYPES = new Set(['direct', 'private']);

function tryJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function streamAddressee(rawTo: string, topic: string | undefined): Addressee {
  let target = tryJson(rawTo) ?? rawTo;
  if (Array.isArray(target)) {
    if (target.length > 1) throw new ApiError('Cannot send to multiple channels');
    target = target[0];
  }
  if (topic === undefined) throw new ApiError('Missing topic');
  if (typeof target === 'number' && Number.isSafeInteger(target)) return { kind: 'stream', streamId: target, topic };
  if (typeof target === 'string' && target.trim() !== '') return { kind: 'stream', streamName: target, topic };
  if (target === undefined || target === '') throw new ApiError('Missing channel');
  // Anything else (objects, floats, booleans) is taken as the name the client wrote.
  return { kind: 'stream', streamName: rawTo, topic };
}

function directAddressee(rawTo: string): Addressee {
  const parsed = tryJson(rawTo);
  const list: unknown[] = Array.isArray(parsed)
    ? parsed
    : typeof parsed === 'number'
      ? [parsed]
      : rawTo.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (list.length === 0) throw new ApiError('Message must have recipients');
  if (list.length > MAX_DM_RECIPIENTS) throw tooManyItems('to', MAX_DM_RECIPIENTS);
  if (list.every((v) => typeof v === 'number')) {
    if (!list.every((v) => Number.isSafeInteger(v))) throw new ApiError('Invalid user ID');
    return { kind: 'direct', userIds: list as number[] };
  }
  if (list.every((v) => typeof v === 'string')) return { kind: 'direct', emails: list as string[] };
  if (list.every((v) => typeof v === 'string' || typeof v === 'number')) {
    throw new ApiError('Recipient lists may contain emails or user IDs, but not both.');
  }
  throw new ApiError('Invalid data type for recipients');
}

export function parseAddressee(type: string, rawTo: string, topic: string | undefined): Addressee {
  if (STREAM_TYPES.has(type)) return streamAddressee(rawTo, topic);
  if (DIRECT_TYPES.has(type)) return directAddressee(rawTo);
  throw new ApiError('Invalid type');
}
