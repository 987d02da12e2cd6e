// Checks responses against the reference OpenAPI document (Zulip's own, trimmed to what the checks
// read: reference/zulip-openapi.json, see reference/README.md; CONFAB_OPENAPI_YAML names another
// document, YAML or JSON), with SPEC.md's differences (spec-differences.ts) applied first. The
// document is read once per process; each operation's schemas are turned into plain JSON Schema
// (openapi-schema.ts) and compiled on first use, then cached.
import { AssertionError } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import type { ApiResponse } from './client.js';
import { Normalizer } from './openapi-schema.js';
import { applySpecDifferences, type Doc, type SchemaNode } from './spec-differences.js';

/** The repository's copy of the reference, made by scripts/extract-openapi.ts. */
export const BUNDLED_REFERENCE_PATH = fileURLToPath(new URL('./reference/zulip-openapi.json', import.meta.url));

const REFERENCE_PATH = process.env.CONFAB_OPENAPI_YAML || BUNDLED_REFERENCE_PATH;

type Segment = { literal: string } | { param: string; integer: boolean };

interface Operation {
  method: string;
  template: string;
  operationId: string;
  definition: SchemaNode;
  segments: Segment[];
}

interface Branch {
  label: string;
  validate: ValidateFunction;
}

interface State {
  doc: Doc;
  operations: Operation[];
  ajv: Ajv;
  normalizer: Normalizer;
  validators: Map<string, Branch[]>;
}

let state: State | undefined;

/**
 * The reference document as the file holds it, before SPEC.md's differences; a fresh copy on each call
 * (for tests that read the document itself, such as its descriptions).
 * Parsing 1.2 MB of YAML takes most of a second: a YAML document's parsed form is kept as JSON
 * beside the temp files.
 */
export function readReference(): Doc {
  const text = readFileSync(REFERENCE_PATH, 'utf8');
  if (REFERENCE_PATH.endsWith('.json')) return JSON.parse(text) as Doc;
  const hash = createHash('sha1').update(text).digest('hex').slice(0, 16);
  const cached = join(tmpdir(), `confab-openapi-${hash}.json`);
  if (existsSync(cached)) {
    try {
      return JSON.parse(readFileSync(cached, 'utf8')) as Doc;
    } catch {
      // A half-written or foreign file: parse the YAML again below.
    }
  }
  const doc = YAML.parse(text) as Doc;
  try {
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(doc));
    renameSync(partial, cached);
  } catch {
    // No writable temp folder: every process parses the YAML itself.
  }
  return doc;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function load(): State {
  if (state) return state;
  const doc = applySpecDifferences(readReference());
  const normalizer = new Normalizer(doc);
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, SchemaNode>)) {
    for (const method of METHODS) {
      const definition = item[method] as SchemaNode | undefined;
      if (!definition) continue;
      const params = [...(item.parameters ?? []), ...(definition.parameters ?? [])].map((p: SchemaNode) =>
        normalizer.deref(p),
      );
      const segments = template
        .split('/')
        .filter(Boolean)
        .map((part): Segment => {
          const match = /^\{(.+)\}$/.exec(part);
          if (!match) return { literal: part };
          const param = params.find((p) => p.name === match[1] && p.in === 'path');
          return { param: match[1]!, integer: normalizer.deref(param?.schema ?? {}).type === 'integer' };
        });
      operations.push({ method: method.toUpperCase(), template, operationId: definition.operationId, definition, segments });
    }
  }
  const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
  addFormats.default(ajv);
  state = { doc, operations, ajv, normalizer, validators: new Map() };
  return state;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The reference document with SPEC.md's differences applied (shared: do not change it). */
export function referenceDocument(): Doc {
  return load().doc;
}

/** The operation serving method + path: literal segments beat parameters; integer parameters want digits. */
function findOperation(current: State, method: string, path: string): Operation | undefined {
  const all = path.split('?')[0]!.split('/').filter(Boolean).map(decodeSegment);
  // Upload paths end in a {filename} that holds slashes (the reference's <path:filename>).
  const joinTail = (op: Operation) =>
    op.segments.length < all.length && op.template.endsWith('/{filename}') && all[0] === 'user_uploads'
      ? [...all.slice(0, op.segments.length - 1), all.slice(op.segments.length - 1).join('/')]
      : all;
  const fits = (op: Operation, typed: boolean, parts = joinTail(op)) =>
    op.method === method.toUpperCase() &&
    op.segments.length === parts.length &&
    op.segments.every((segment, i) => {
      if ('literal' in segment) return segment.literal === parts[i];
      return !typed || !segment.integer || /^-?[0-9]+$/.test(parts[i]!);
    });
  let candidates = current.operations.filter((op) => fits(op, true));
  if (candidates.length === 0) candidates = current.operations.filter((op) => fits(op, false));
  // Literal segments first, then integer parameters (a number is more likely an id than a name).
  const rank = (op: Operation) => op.segments.map((s) => ('literal' in s ? '0' : s.integer ? '1' : '2')).join('');
  return candidates.sort((a, b) => rank(a).localeCompare(rank(b)))[0];
}

/** The operationId the checker would use for a request, or undefined when the reference lacks it. */
export function referenceOperationId(method: string, path: string): string | undefined {
  return findOperation(load(), method, path)?.operationId;
}

function responseSchema(current: State, operation: Operation, status: string): unknown {
  const response = operation.definition.responses?.[status];
  if (!response) return undefined;
  const content = current.normalizer.deref(response).content as SchemaNode | undefined;
  return content?.['application/json']?.schema;
}

/** Error shapes any operation may answer with: every component schema named like *Error. */
function sharedErrorBranches(current: State): Branch[] {
  const key = 'shared-errors';
  const known = current.validators.get(key);
  if (known) return known;
  const schemas = current.doc.components.schemas as Record<string, unknown>;
  const branches = Object.keys(schemas)
    .filter((name) => name === 'CodedError' || name.endsWith('Error'))
    .map((name) => ({
      label: `components/schemas/${name}`,
      validate: current.ajv.compile(current.normalizer.schema({ $ref: `#/components/schemas/${name}` })),
    }));
  current.validators.set(key, branches);
  return branches;
}

function branchesFor(current: State, operation: Operation, status: number): Branch[] {
  const key = `${operation.method} ${operation.template} ${status}`;
  const known = current.validators.get(key);
  if (known) return known;
  const documented = responseSchema(current, operation, String(status));
  const branches: Branch[] = [];
  if (documented !== undefined) {
    branches.push({ label: `${status} response`, validate: current.ajv.compile(current.normalizer.schema(documented)) });
  }
  if (status >= 400) branches.push(...sharedErrorBranches(current));
  current.validators.set(key, branches);
  return branches;
}

function fail(operation: Operation | undefined, method: string, path: string, status: number, detail: string): never {
  const what = operation ? `${operation.operationId} (${operation.method} ${operation.template})` : `${method} ${path}`;
  throw new AssertionError({ message: `OpenAPI check: ${what}, status ${status}: ${detail}` });
}

/** Checks one response of the test suite against the reference; throws an AssertionError when it does not fit. */
export function checkResponse(method: string, path: string, response: ApiResponse): void {
  const current = load();
  const { status, body } = response;
  const operation = findOperation(current, method, path);
  if (!operation) {
    fail(undefined, method, path, status, 'no such operation in the reference; call with {undocumented: true} if that is intended');
  }
  const expected = status >= 200 && status < 300 ? 'success' : status >= 400 && status < 500 ? 'error' : undefined;
  if (!expected) fail(operation, method, path, status, `unexpected status; body ${preview(body)}`);
  if (body?.result !== expected) fail(operation, method, path, status, `result must be "${expected}"; body ${preview(body)}`);
  const branches = branchesFor(current, operation, status);
  if (branches.length === 0) fail(operation, method, path, status, 'the reference documents no response for this status');
  let best: { label: string; errors: ErrorObject[] } | undefined;
  for (const branch of branches) {
    if (branch.validate(body)) return;
    const errors = relevantErrors(branch.validate.errors ?? []);
    if (!best || errors.length < best.errors.length) best = { label: branch.label, errors };
  }
  const closest = branches.length > 1 ? ` (closest documented shape: ${best!.label})` : '';
  fail(operation, method, path, status, `${describe(best!.errors, body)}${closest}`);
}

/**
 * When every alternative of an anyOf fails, ajv reports the errors of all of them; keep only the
 * alternative that came closest (fewest errors, then the deepest one), outermost anyOf first.
 */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  let remaining = errors;
  const failures = errors.filter((e) => e.keyword === 'anyOf').sort((x, y) => x.schemaPath.length - y.schemaPath.length);
  for (const failure of failures) {
    if (!remaining.includes(failure)) continue;
    const prefix = `${failure.schemaPath}/`;
    const within = (e: ErrorObject) =>
      e.schemaPath.startsWith(prefix) &&
      (e.instancePath === failure.instancePath || e.instancePath.startsWith(`${failure.instancePath}/`));
    const branchOf = (e: ErrorObject) => e.schemaPath.slice(prefix.length).split('/')[0]!;
    const byBranch = new Map<string, ErrorObject[]>();
    for (const e of remaining) if (within(e)) byBranch.set(branchOf(e), [...(byBranch.get(branchOf(e)) ?? []), e]);
    const depth = (list: ErrorObject[]) => Math.max(...list.map((e) => e.instancePath.split('/').length));
    const [bestBranch] = [...byBranch.entries()].sort(
      ([, x], [, y]) => x.length - y.length || depth(y) - depth(x),
    )[0] ?? [undefined];
    remaining = remaining.filter((e) => e !== failure && (!within(e) || branchOf(e) === bestBranch));
  }
  return remaining.filter((e) => e.keyword !== 'anyOf');
}

function valueAt(body: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node: any, key) => node?.[key], body);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

function describe(errors: ErrorObject[], body: unknown): string {
  const lines = errors.slice(0, 5).map((e) => {
    const at = e.instancePath || '/';
    if (e.keyword === 'additionalProperties') {
      const name = String(e.params.additionalProperty);
      const pointer = `${e.instancePath}/${name}`;
      return `at ${pointer}: property not allowed here; value ${preview(valueAt(body, pointer))}`;
    }
    if (e.keyword === 'required') return `at ${at}: missing required property '${String(e.params.missingProperty)}'`;
    const allowed = e.keyword === 'enum' ? ` ${preview(e.params.allowedValues)}` : '';
    return `at ${at}: ${e.message}${allowed}; value ${preview(valueAt(body, e.instancePath))}`;
  });
  if (errors.length > lines.length) lines.push(`(${errors.length - lines.length} more)`);
  return lines.length > 0 ? lines.join('\n  ') : 'does not fit the documented schema';
}

interface EventBranch extends Branch {
  types: unknown[] | undefined;
  ops: unknown[] | undefined;
}

/** The event schemas of GET /events (its `events` items), compiled once, with the type and op each accepts. */
function eventBranches(current: State): EventBranch[] {
  const key = 'events';
  const known = current.validators.get(key);
  if (known) return known as EventBranch[];
  const events = current.doc.paths['/events'].get.responses['200'].content['application/json'].schema;
  const items = current.normalizer.schema(events) as SchemaNode;
  const list = items.properties?.events?.items?.anyOf as SchemaNode[] | undefined;
  if (!list) throw new Error('openapi-check: GET /events documents no event list');
  const branches = list.map((schema, i) => ({
    label: `event schema #${i}${schema.properties?.type?.enum ? ` (${schema.properties.type.enum.join('|')})` : ''}`,
    validate: current.ajv.compile(schema),
    types: schema.properties?.type?.enum as unknown[] | undefined,
    ops: schema.properties?.op?.enum as unknown[] | undefined,
  }));
  current.validators.set(key, branches);
  return branches;
}

/**
 * Checks one event, as a queue would hand it to a client (with its `id`), against the event schemas
 * of the reference's GET /events response; throws an AssertionError naming the closest schema's errors.
 */
export function checkEvent(event: Record<string, unknown>): void {
  const current = load();
  const candidates = eventBranches(current).filter(
    (b) => (!b.types || b.types.includes(event.type)) && (!b.ops || !('op' in event) || b.ops.includes(event.op)),
  );
  const what = `event ${String(event.type)}${'op' in event ? `/${String(event.op)}` : ''}`;
  if (candidates.length === 0) {
    throw new AssertionError({ message: `OpenAPI check: ${what}: the reference documents no such event` });
  }
  let best: { label: string; errors: ErrorObject[] } | undefined;
  for (const branch of candidates) {
    if (branch.validate(event)) return;
    const errors = relevantErrors(branch.validate.errors ?? []);
    if (!best || errors.length < best.errors.length) best = { label: branch.label, errors };
  }
  const closest = candidates.length > 1 ? ` (closest documented shape: ${best!.label})` : '';
  throw new AssertionError({ message: `OpenAPI check: ${what}: ${describe(best!.errors, event)}${closest}` });
}
