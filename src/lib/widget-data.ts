// Checks on what readers send to a poll or todo widget, with the reference's rules and texts
// (its validate_poll_data and validate_todo_data, built from its generic validators).
import { ApiError } from '../errors.js';

type Check = (name: string, value: unknown) => void;

// Matches the limit of the widgets in clients; somewhat arbitrary.
const MAX_IDX = 1000;

const isDict = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const checkString: Check = (name, value) => {
  if (typeof value !== 'string') throw new ApiError(`${name} is not a string`);
};

// The reference's integers include booleans (Python's bool is an int), so true passes as 1.
const asInt = (name: string, value: unknown): number => {
  if (typeof value === 'boolean') return Number(value);
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new ApiError(`${name} is not an integer`);
  return value;
};

const checkIntRange = (low: number, high: number): Check => (name, value) => {
  const n = asInt(name, value);
  if (n < low) throw new ApiError(`${name} is too small`);
  if (n > high) throw new ApiError(`${name} is too large`);
};

const checkIntIn = (allowed: number[]): Check => (name, value) => {
  if (!allowed.includes(asInt(name, value))) throw new ApiError(`Invalid ${name}`);
};

const checkBool: Check = (name, value) => {
  if (typeof value !== 'boolean') throw new ApiError(`${name} is not a boolean`);
};

/** A dict with these keys, each checked in order; with `only`, no other keys. */
function checkDict(required: Array<[string, Check]>, only = false): Check {
  return (name, value) => {
    if (!isDict(value)) throw new ApiError(`${name} is not a dict`);
    for (const [key, check] of required) {
      if (!Object.hasOwn(value, key)) throw new ApiError(`${key} key is missing from ${name}`);
      check(`${name}["${key}"]`, value[key]);
    }
    if (only) {
      const listed = new Set(required.map(([key]) => key));
      const extra = Object.keys(value).filter((key) => !listed.has(key));
      if (extra.length > 0) throw new ApiError(`Unexpected arguments: ${extra.join(', ')}`);
    }
  };
}

export function validatePollData(data: unknown, isWidgetAuthor: boolean): void {
  checkDict([['type', checkString]])('poll data', data);
  const type = (data as Record<string, unknown>).type as string;
  const only = (keys: Array<[string, Check]>) => checkDict([['type', checkString], ...keys], true)('poll data', data);
  switch (type) {
    case 'vote':
      return only([['key', checkString], ['vote', checkIntIn([1, -1])]]);
    case 'question':
      if (!isWidgetAuthor) throw new ApiError("You can't edit a question unless you are the author.");
      return only([['question', checkString]]);
    case 'new_option':
      return only([['option', checkString], ['idx', checkIntRange(0, MAX_IDX)]]);
    default:
      throw new ApiError(`Unknown type for poll data: ${type}`);
  }
}

export function validateTodoData(data: unknown): void {
  checkDict([['type', checkString]])('todo data', data);
  const type = (data as Record<string, unknown>).type as string;
  const only = (keys: Array<[string, Check]>) => checkDict([['type', checkString], ...keys], true)('todo data', data);
  switch (type) {
    case 'new_task':
      return only([['key', checkIntRange(0, MAX_IDX)], ['task', checkString], ['desc', checkString], ['completed', checkBool]]);
    case 'strike':
      return only([['key', checkString]]);
    default:
      throw new ApiError(`Unknown type for todo data: ${type}`);
  }
}
