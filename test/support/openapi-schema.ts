// OpenAPI 3.0 schema objects as plain JSON Schema, for the response check (openapi-check.ts).
// OpenAPI 3.0 is not JSON Schema: allOf parts carry `additionalProperties: false` while listing only
// some of the fields the other parts define, `nullable` stands beside `type`, and oneOf alternatives
// overlap. So allOf parts are merged into one schema (fields united, additionalProperties kept),
// nullable becomes a null type or enum value, and oneOf is read as anyOf.
import type { Doc, SchemaNode } from './spec-differences.js';

export type Schema = SchemaNode | boolean;

const ANNOTATIONS = new Set([
  'description',
  'example',
  'examples',
  'deprecated',
  'title',
  'default',
  'readOnly',
  'writeOnly',
  'externalDocs',
  'xml',
  'discriminator',
]);

/** Turns OpenAPI schema objects into JSON Schema (see the header comment). */
export class Normalizer {
  private readonly refs = new Map<string, Schema>();
  private readonly resolving = new Set<string>();
  private readonly finished = new WeakMap<object, Schema>();

  constructor(private readonly doc: Doc) {}

  /** Follows a local $ref (one level at a time, as OpenAPI 3.0 ignores a $ref's siblings). */
  deref(node: SchemaNode): SchemaNode {
    let current = node;
    while (current && typeof current.$ref === 'string') {
      const ref = current.$ref as string;
      if (!ref.startsWith('#/')) throw new Error(`openapi-check: only local $refs are supported (${ref})`);
      current = ref
        .slice(2)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((node: any, key) => node?.[key], this.doc);
      if (current === undefined) throw new Error(`openapi-check: dangling $ref ${ref}`);
    }
    return current;
  }

  schema(node: unknown): Schema {
    return this.finish(this.normalize(node));
  }

  private normalize(node: unknown): Schema {
    if (typeof node === 'boolean') return node;
    if (!node || typeof node !== 'object') return true;
    const source = node as SchemaNode;
    if (typeof source.$ref === 'string') {
      const ref = source.$ref;
      const known = this.refs.get(ref);
      if (known !== undefined) return known;
      if (this.resolving.has(ref)) throw new Error(`openapi-check: recursive schema ${ref} is not supported`);
      this.resolving.add(ref);
      const result = this.normalize(this.deref(source));
      this.resolving.delete(ref);
      this.refs.set(ref, result);
      return result;
    }
    const out: SchemaNode = {};
    for (const [key, value] of Object.entries(source)) {
      if (ANNOTATIONS.has(key) || key.startsWith('x-') || key === 'allOf') continue;
      if (key === 'oneOf' || key === 'anyOf') out.anyOf = (value as unknown[]).map((v) => this.normalize(v));
      else if (key === 'properties') {
        out.properties = Object.fromEntries(Object.entries(value as SchemaNode).map(([k, v]) => [k, this.normalize(v)]));
      } else if (key === 'items' || key === 'additionalProperties' || key === 'not') out[key] = this.normalize(value);
      else out[key] = value;
    }
    const parts = (source.allOf as unknown[] | undefined) ?? [];
    return parts.map((part) => this.normalize(part)).reduce<Schema>((merged, part) => mergeSchemas(merged, part), out);
  }

  /** nullable -> an explicit null; memoised by identity because normalised $refs are shared. */
  private finish(node: Schema): Schema {
    if (typeof node === 'boolean') return node;
    const done = this.finished.get(node);
    if (done !== undefined) return done;
    const out: SchemaNode = { ...node };
    this.finished.set(node, out);
    if (out.properties) {
      out.properties = Object.fromEntries(Object.entries(out.properties as SchemaNode).map(([k, v]) => [k, this.finish(v)]));
    }
    for (const key of ['items', 'additionalProperties', 'not']) if (key in out) out[key] = this.finish(out[key]);
    for (const key of ['anyOf', 'allOf']) if (key in out) out[key] = (out[key] as Schema[]).map((s) => this.finish(s));
    if (out.nullable === true) {
      if (out.type !== undefined) out.type = [...new Set([...[out.type].flat(), 'null'])];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
    }
    delete out.nullable;
    return out;
  }
}

/** allOf of two normalised schemas as one schema: fields united, the stricter additionalProperties kept. */
export function mergeSchemas(a: Schema, b: Schema): Schema {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  const out: SchemaNode = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out)) {
      out[key] = value;
      continue;
    }
    const current = out[key];
    switch (key) {
      case 'properties': {
        const props: SchemaNode = { ...current };
        for (const [name, schema] of Object.entries(value as SchemaNode)) {
          props[name] = name in props ? mergeSchemas(props[name], schema) : schema;
        }
        out.properties = props;
        break;
      }
      case 'required':
        out.required = [...new Set([...current, ...value])];
        break;
      case 'additionalProperties':
      case 'items':
        out[key] = mergeSchemas(current, value);
        break;
      case 'nullable':
        // OpenAPI 3.0 writes `nullable: true` beside allOf to make a referenced schema nullable.
        out.nullable = Boolean(current) || Boolean(value);
        break;
      case 'enum': {
        const both = (current as unknown[]).filter((x) => (value as unknown[]).some((y) => sameJson(x, y)));
        out.enum = both.length > 0 ? both : value;
        break;
      }
      default:
        // Keywords that cannot be merged keep their strict allOf meaning.
        if (!sameJson(current, value)) out.allOf = [...(out.allOf ?? []), { [key]: value }];
    }
  }
  return out;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
