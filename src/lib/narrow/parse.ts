// Narrow JSON -> normalised terms. Pure: nothing here reads the store.
//
// Two steps, as the reference server takes them: the parameter layer checks the shape of
// each element (narrowSchema, errors worded like the typed-parameter layer), then
// normalizeNarrow maps legacy operator names to current ones and rejects unknown operators
// and operands with BAD_NARROW errors. The `with` rewrite and the channel/direct-message
// combination check run after the store has been consulted (see queries/narrow/resolve.ts).
//
// Security rule for every narrow file: a term may only remove messages from what the viewer
// may see, never add any.
import { z } from 'zod';
import { BadNarrowError, InvalidOperatorCombinationError } from '../../errors.js';
import { MAX_DM_RECIPIENTS, MAX_SEARCH_LENGTH, MAX_SEARCH_WORDS } from '../limits.js';
import { searchWords } from './search.js';
import {
  CHANNELS_OPERANDS,
  HAS_OPERANDS,
  IN_OPERANDS,
  IS_OPERANDS,
  MAX_MESSAGE_ID,
  type NarrowTerm,
  type Term,
} from './types.js';

/** Operators whose operand may be a string or an integer id. */
const ID_OPERATORS = new Set(['channel', 'stream', 'id', 'sender', 'group-pm-with', 'dm-including', 'with']);
/** Operators whose operand may be a string or a list of integer ids. */
const ID_LIST_OPERATORS = new Set(['dm', 'pm-with']);

// Loose boolean spellings the reference's parameter layer accepts for `negated`.
const TRUE_WORDS = new Set(['true', 't', 'yes', 'y', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'f', 'no', 'n', 'off', '0']);

type Ctx = z.core.$RefinementCtx<unknown>;

function fail(ctx: Ctx, input: unknown, message: string, path: PropertyKey[] = []): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message, input, path });
  return z.NEVER;
}

const valueError = (ctx: Ctx, input: unknown, text: string) => fail(ctx, input, `Invalid {var_name}: Value error, ${text}`);

function looseBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === 'string') {
    const lowered = value.toLowerCase();
    if (TRUE_WORDS.has(lowered)) return true;
    if (FALSE_WORDS.has(lowered)) return false;
  }
  return undefined;
}

/** The operand check that depends on the operator name as sent; returns an error text or null. */
function operandProblem(operator: string, operand: unknown): string | null {
  if (ID_OPERATORS.has(operator)) {
    const ok = typeof operand === 'string' || (typeof operand === 'number' && Number.isInteger(operand));
    return ok ? null : 'operand is not a string or integer';
  }
  if (ID_LIST_OPERATORS.has(operator)) {
    if (typeof operand === 'string') {
      return operand.split(',').length > MAX_DM_RECIPIENTS ? `operand is too long (limit: ${MAX_DM_RECIPIENTS} items)` : null;
    }
    if (!Array.isArray(operand)) return 'operand is not a string or an integer list';
    if (operand.length > MAX_DM_RECIPIENTS) return `operand is too long (limit: ${MAX_DM_RECIPIENTS} items)`;
    const bad = operand.findIndex((item) => typeof item !== 'number' || !Number.isInteger(item));
    return bad === -1 ? null : `operand[${bad}] is not an integer`;
  }
  if (typeof operand !== 'string') return 'operand is not a string';
  if (operator === 'search' && operand.trim() === '') return 'operand cannot be blank.';
  return null;
}

function toTerm(element: unknown, ctx: Ctx): NarrowTerm {
  let operator: unknown;
  let operand: unknown;
  let negated = false;
  if (Array.isArray(element)) {
    if (element.length !== 2 || element.some((part) => typeof part !== 'string')) {
      return valueError(ctx, element, 'element is not a string pair');
    }
    [operator, operand] = element;
  } else if (element !== null && typeof element === 'object') {
    const dict = element as Record<string, unknown>;
    if (dict.operand === undefined || dict.operand === null) return valueError(ctx, element, 'operand is missing');
    if (dict.operator === undefined || dict.operator === null) return valueError(ctx, element, 'operator is missing');
    ({ operator, operand } = dict);
    if (typeof operator !== 'string') return fail(ctx, element, '{var_name} is not a string', ['operator']);
    if ('negated' in dict) {
      const parsed = looseBool(dict.negated);
      if (parsed === undefined) return fail(ctx, element, '{var_name} is not a boolean', ['negated']);
      negated = parsed;
    }
  } else {
    return valueError(ctx, element, 'dict or list required');
  }
  const problem = operandProblem(operator as string, operand);
  if (problem) return fail(ctx, element, problem);
  return { operator: operator as string, operand: operand as NarrowTerm['operand'], negated };
}

/**
 * Search is the one operator whose cost grows with its operand: every word is one more index
 * lookup, stem and highlight pass. All search operands of a narrow count together.
 */
function checkSearchBounds(terms: NarrowTerm[], ctx: Ctx): void {
  let length = 0;
  let words = 0;
  for (const term of terms) {
    if (term.operator !== 'search' || typeof term.operand !== 'string') continue;
    length += term.operand.length;
    if (length > MAX_SEARCH_LENGTH) {
      fail(ctx, terms, `Search query is too long (limit: ${MAX_SEARCH_LENGTH} characters)`);
      return;
    }
    words += searchWords(term.operand).length;
  }
  if (words > MAX_SEARCH_WORDS) fail(ctx, terms, `Search query has too many words (limit: ${MAX_SEARCH_WORDS} words)`);
}

/**
 * The `narrow` parameter: a JSON list of {operator, operand, negated?} dicts or [operator, operand]
 * pairs. Its length is bounded where it is declared (MAX_NARROW_TERMS, see http/params.ts).
 */
export const narrowSchema = z.array(z.unknown().transform(toTerm)).superRefine(checkSearchBounds);

function oneOf<const V extends string>(values: readonly V[], operand: NarrowTerm['operand']): V | undefined {
  return typeof operand === 'string' && (values as readonly string[]).includes(operand) ? (operand as V) : undefined;
}

/** Python-style rendering of an operand inside error texts: lists print as [1, 2]. */
export function operandText(operand: NarrowTerm['operand']): string {
  return Array.isArray(operand) ? `[${operand.join(', ')}]` : String(operand);
}

function withTarget(operand: NarrowTerm['operand']): number {
  if (typeof operand === 'number') return operand;
  if (typeof operand === 'string' && /^\s*[+-]?[0-9]+\s*$/.test(operand)) return Number(operand.trim());
  throw new BadNarrowError("Invalid 'with' operator");
}

function normalizeTerm(term: NarrowTerm): Term {
  const { operand, negated } = term;
  switch (term.operator) {
    case 'channel':
    case 'stream':
      return { operator: 'channel', operand: operand as string | number, negated };
    case 'channels':
    case 'streams': {
      const value = oneOf(CHANNELS_OPERANDS, operand);
      if (!value) throw new BadNarrowError(`unknown channels operand ${operandText(operand)}`);
      return { operator: 'channels', operand: value, negated };
    }
    case 'topic':
      return { operator: 'topic', operand: operand as string, negated };
    case 'sender':
      return { operator: 'sender', operand: operand as string | number, negated };
    case 'dm':
    case 'pm-with':
    case 'pm_with':
      return { operator: 'dm', operand: operand as string | number[], negated };
    case 'dm-including':
      return { operator: 'dm-including', operand: operand as string | number, negated };
    case 'group-pm-with':
    case 'group_pm_with':
      return { operator: 'group-pm-with', operand: operand as string | number, negated };
    case 'is': {
      const value = oneOf(IS_OPERANDS, operand === 'private' ? 'dm' : operand);
      if (!value) throw new BadNarrowError(`unknown 'is' operand ${operandText(operand)}`);
      return { operator: 'is', operand: value, negated };
    }
    case 'has': {
      const value = oneOf(HAS_OPERANDS, operand);
      if (!value) throw new BadNarrowError(`unknown 'has' operand ${operandText(operand)}`);
      return { operator: 'has', operand: value, negated };
    }
    case 'in': {
      const value = oneOf(IN_OPERANDS, operand);
      if (!value) throw new BadNarrowError(`unknown 'in' operand ${operandText(operand)}`);
      return { operator: 'in', operand: value, negated };
    }
    case 'near':
      return { operator: 'near', operand: operand as string, negated };
    case 'id': {
      const text = operandText(operand);
      if (!/^[0-9]+$/.test(text) || Number(text) > MAX_MESSAGE_ID) throw new BadNarrowError('Invalid message ID');
      return { operator: 'id', operand: Number(text), negated };
    }
    case 'with':
      return { operator: 'with', operand: withTarget(operand), negated };
    case 'search':
      return { operator: 'search', operand: operand as string, negated };
    default:
      throw new BadNarrowError(`unknown operator ${term.operator}`);
  }
}

/**
 * Current operator names, checked operands. The `with` term is checked first, as the
 * reference rewrites it before looking at anything else.
 */
export function normalizeNarrow(terms: readonly NarrowTerm[]): Term[] {
  const withTerms = terms.filter((term) => term.operator === 'with');
  if (withTerms.length > 1) throw new InvalidOperatorCombinationError("Duplicate 'with' operators.");
  if (withTerms.length === 1) withTarget(withTerms[0]!.operand);
  return terms.map(normalizeTerm);
}

/** The conversation a `with` term points at, or null when the viewer may not see that message. */
export type WithTarget = { type: 'stream'; streamId: number; topic: string } | { type: 'dm'; userIds: number[] } | null;

function definesConversation(terms: readonly Term[]): boolean {
  if (terms.some((term) => term.operator === 'dm')) return true;
  return terms.some((term) => term.operator === 'channel') && terms.some((term) => term.operator === 'topic');
}

/**
 * Replaces a `with` term by the conversation of its message: the channel, topic and dm terms
 * give way to that conversation. An inaccessible message leaves the other terms alone when
 * they already name a conversation, and is an error otherwise.
 */
export function rewriteWith(terms: readonly Term[], target: WithTarget): Term[] {
  const rest = terms.filter((term) => term.operator !== 'with');
  if (rest.length === terms.length) return [...terms];
  if (target === null) {
    if (definesConversation(rest)) return rest;
    throw new BadNarrowError("Invalid 'with' operator");
  }
  const others = rest.filter((term) => !['channel', 'topic', 'dm'].includes(term.operator));
  const conversation: Term[] =
    target.type === 'stream'
      ? [
          { operator: 'channel', operand: target.streamId, negated: false },
          { operator: 'topic', operand: target.topic, negated: false },
        ]
      : [{ operator: 'dm', operand: target.userIds, negated: false }];
  return [...conversation, ...others];
}

const CHANNEL_SIDE = new Set(['channel', 'channels', 'topic']);
const DM_SIDE = new Set(['dm', 'dm-including', 'group-pm-with']);

/**
 * No message is both a channel message and a direct message. A negated is:dm term counts
 * on the channel side; other negated terms count on neither side.
 */
export function checkChannelDmCombination(terms: readonly Term[]): void {
  let channel = false;
  let direct = false;
  for (const term of terms) {
    if (term.operator === 'is' && term.operand === 'dm') {
      if (term.negated) channel = true;
      else direct = true;
    } else if (!term.negated) {
      if (CHANNEL_SIDE.has(term.operator)) channel = true;
      if (DM_SIDE.has(term.operator)) direct = true;
    }
    if (channel && direct) throw new BadNarrowError('No message can be both a channel message and direct message');
  }
}
