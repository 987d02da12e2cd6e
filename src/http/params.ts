// Zulip's parameter conventions: values arrive as strings (query string, form or multipart);
// integers, booleans, arrays and objects are JSON inside those strings; some names have aliases;
// anything not declared is reported back in ignored_parameters_unsupported.
import type { z } from 'zod';
import { ApiError, InvalidJsonError, NotFoundError, RequestConfusingVarError, RequestVariableMissingError } from '../errors.js';
import { MAX_JSON_DEPTH, MAX_LIST_ITEMS, tooManyItems } from '../lib/limits.js';
import { ROLE_VALUES } from '../lib/roles.js';
import { parseJsonValue } from '../lib/settings-registry.js';

export type RawParams = Record<string, string>;

type Parser<T> = (raw: string, name: string) => T;

export class Param<T> {
  constructor(
    readonly parse: Parser<T>,
    readonly required = true,
    readonly fallback: (() => T) | undefined = undefined,
    readonly aliases: readonly string[] = [],
    readonly inPath = false,
  ) {}

  optional(): Param<T | undefined> {
    return new Param<T | undefined>(this.parse, false, () => undefined, this.aliases, this.inPath);
  }

  default(value: T): Param<T> {
    return new Param(this.parse, false, () => value, this.aliases, this.inPath);
  }

  alias(...names: string[]): Param<T> {
    return new Param(this.parse, this.required, this.fallback, [...this.aliases, ...names], this.inPath);
  }

  /** Further checks or conversion of the parsed value. */
  then<U>(next: (value: T, name: string) => U): Param<U> {
    const parse = this.parse;
    return new Param<U>((raw, name) => next(parse(raw, name), name), this.required, undefined, this.aliases, this.inPath);
  }
}

export type ParamShape = Record<string, Param<unknown>>;
export type ParamValues<S extends ParamShape> = { [K in keyof S]: S[K] extends Param<infer T> ? T : never };

const invalid = (msg: string) => new ApiError(msg);

/** Ids are 32-bit integer columns on PostgreSQL; larger numbers cannot name anything. */
const MAX_ID = 2_147_483_647;


interface StringOptions {
  maxLength?: number;
  /** Reject empty (after trimming) values with "x cannot be blank". */
  notBlank?: boolean;
}

function checkInt(value: unknown, name: string, min?: number, max?: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(`${name} is not an integer`);
  if (min !== undefined && value < min) throw invalid(`${name} is too small`);
  if (max !== undefined && value > max) throw invalid(`${name} is too large`);
  return value;
}

export const p = {
  /** A plain string, taken as sent. */
  string(options: StringOptions = {}): Param<string> {
    return new Param((raw, name) => {
      if (options.notBlank && raw.trim() === '') throw invalid(`${name} cannot be blank`);
      if (options.maxLength !== undefined && [...raw].length > options.maxLength) {
        throw invalid(`${name} is too long (limit: ${options.maxLength} characters)`);
      }
      return raw;
    });
  },

  /** A JSON integer. */
  int(options: { min?: number; max?: number } = {}): Param<number> {
    return new Param((raw, name) => checkInt(parseJsonValue(raw, name), name, options.min, options.max));
  },

  /** A role value (owner, administrator, moderator, member, guest), as the reference numbers them. */
  role(): Param<number> {
    return new Param((raw, name) => {
      const role = checkInt(parseJsonValue(raw, name), name);
      if (!ROLE_VALUES.includes(role)) throw invalid(`Invalid ${name}`);
      return role;
    });
  },

  /** A JSON boolean. */
  bool(): Param<boolean> {
    return new Param((raw, name) => {
      const value = parseJsonValue(raw, name);
      if (typeof value !== 'boolean') throw invalid(`${name} is not a boolean`);
      return value;
    });
  },

  /** One of a fixed set of string values. */
  choice<const V extends string>(values: readonly V[]): Param<V> {
    return new Param((raw, name) => {
      if (!(values as readonly string[]).includes(raw)) throw invalid(`Invalid ${name}`);
      return raw as V;
    });
  },

  /**
   * A JSON value checked by a zod schema. Lists hold at most MAX_LIST_ITEMS items (the
   * top-level list `maxItems`, when given) and values nest at most MAX_JSON_DEPTH deep,
   * checked before the schema so that no oversized value costs more than its parse.
   */
  json<S extends z.ZodType>(schema: S, options: { maxItems?: number } = {}): Param<z.output<S>> {
    return new Param((raw, name) => {
      const value = parseJsonValue(raw, name);
      checkJsonBounds(value, name, options.maxItems ?? MAX_LIST_ITEMS);
      const result = schema.safeParse(value);
      if (!result.success) throw invalid(zodMessage(result.error.issues[0]!, name));
      return result.data;
    });
  },

  /** The raw string, for parameters whose form the endpoint decides (anchor, to). */
  raw(): Param<string> {
    return new Param((raw) => raw);
  },

  /** An integer path segment; anything else (or an id no table can hold) is an unknown URL. */
  pathInt(): Param<number> {
    return new Param(
      (raw) => {
        if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) > MAX_ID) throw new NotFoundError();
        return Number(raw);
      },
      true,
      undefined,
      [],
      true,
    );
  },

  pathString(): Param<string> {
    return new Param((raw) => raw, true, undefined, [], true);
  },
};

/** Walks a parsed JSON value (without recursion: it may be deep) and refuses oversized lists and nesting. */
export function checkJsonBounds(value: unknown, name: string, topMaxItems = MAX_LIST_ITEMS): void {
  if (value === null || typeof value !== 'object') return;
  const stack: Array<{ value: object; depth: number; path: string }> = [{ value, depth: 1, path: name }];
  while (stack.length > 0) {
    const { value: node, depth, path } = stack.pop()!;
    if (depth > MAX_JSON_DEPTH) throw new ApiError(`${name} is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`);
    const entries: Array<[string, unknown]> = Array.isArray(node)
      ? node.map((item, i) => [`[${i}]`, item])
      : Object.entries(node).map(([key, item]) => [`[${JSON.stringify(key)}]`, item]);
    const limit = depth === 1 ? topMaxItems : MAX_LIST_ITEMS;
    if (entries.length > limit) throw tooManyItems(path, limit);
    for (const [key, item] of entries) {
      if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1, path: path + key });
    }
  }
}

type Issue = z.core.$ZodIssue;

/** Zulip's wording for a failed check, with the path of the offending element (to[1], narrow[0]["operand"]). */
export function zodMessage(issue: Issue, name: string): string {
  const varName = name + issue.path.map((key) => `[${JSON.stringify(key)}]`).join('');
  switch (issue.code) {
    case 'invalid_type': {
      const expected = String(issue.expected);
      if (expected === 'int' || expected === 'number') return `${varName} is not an integer`;
      if (expected === 'string') return `${varName} is not a string`;
      if (expected === 'boolean') return `${varName} is not a boolean`;
      if (expected === 'array') return `${varName} is not a list`;
      if (expected === 'object' || expected === 'record') return `${varName} is not a dict`;
      return `${varName} is not valid`;
    }
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? `${varName} cannot be blank` : `${varName} is too short.`;
      if (issue.origin === 'array') return `${varName} is too short.`;
      return `${varName} is too small`;
    case 'too_big':
      if (issue.origin === 'string') return `${varName} is too long (limit: ${issue.maximum} characters)`;
      if (issue.origin === 'array') return `${varName} is too long (limit: ${issue.maximum} items)`;
      return `${varName} is too large`;
    case 'invalid_value':
    case 'invalid_union':
      return `Invalid ${varName}`;
    case 'unrecognized_keys':
      return `Argument "${issue.keys[0]}" at ${varName} is unexpected`;
    case 'custom':
      return issue.message.replace('{var_name}', varName);
    default:
      return `Invalid ${varName}`;
  }
}

/** A value of a JSON body, back in the string form parameters arrive in. */
function encodeJsonValue(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    // Nested deeper than JSON.stringify can follow.
    throw new InvalidJsonError();
  }
}

/** Flattens query string and body into one name -> string map (the last of repeated values wins). */
/** Optional parameters taken as sent, one per name (settings, validated later by their registry). */
export function rawOptional(names: readonly string[]): Record<string, Param<string | undefined>> {
  return Object.fromEntries(names.map((name) => [name, p.raw().optional()]));
}

export function collectRaw(query: unknown, body: unknown): RawParams {
  const out: RawParams = {};
  for (const source of [query, body]) {
    if (!source || typeof source !== 'object') continue;
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
      const last = Array.isArray(value) ? value[value.length - 1] : value;
      if (last === undefined) continue;
      out[key] = typeof last === 'string' ? last : encodeJsonValue(last);
    }
  }
  return out;
}

export function parseParams<S extends ParamShape>(
  shape: S,
  raw: RawParams,
  path: Record<string, string>,
): { values: ParamValues<S>; ignored: string[] } {
  const values: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const [name, param] of Object.entries(shape)) {
    if (param.inPath) {
      values[name] = param.parse(path[name] ?? '', name);
      continue;
    }
    let key: string | undefined = name in raw ? name : undefined;
    for (const alias of param.aliases) {
      if (!(alias in raw)) continue;
      if (key !== undefined) throw new RequestConfusingVarError(name, alias);
      key = alias;
    }
    if (key === undefined) {
      if (param.required) throw new RequestVariableMissingError(name);
      values[name] = param.fallback?.();
      continue;
    }
    used.add(key);
    values[name] = param.parse(raw[key]!, name);
  }
  const ignored = Object.keys(raw).filter((key) => !used.has(key) && !isDeclared(shape, key));
  return { values: values as ParamValues<S>, ignored };
}

function isDeclared(shape: ParamShape, key: string): boolean {
  if (key in shape) return true;
  return Object.values(shape).some((param) => param.aliases.includes(key));
}
