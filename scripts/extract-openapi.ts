// Usage: npx tsx scripts/extract-openapi.ts PATH/TO/zulip-openapi.yaml [OUT.json]
//
// Writes the part of Zulip's OpenAPI document that the response checks read
// (test/support/openapi-check.ts, spec-differences.ts) as JSON, so the repository carries what its
// tests need: every path and method with its operationId, parameters and responses, and the
// components they point to. Schemas keep their descriptions (tests read texts such as "Present if
// ... in fetch_event_types" and "New in Zulip X (feature level N)"); examples, request bodies,
// prose about operations and parameters, and x-* extensions are dropped. Before writing, the copy is
// checked against the full document: every response schema, event schema and shared error shape
// the checker compiles must come out the same from both.
import { isDeepStrictEqual } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { Normalizer } from '../test/support/openapi-schema.js';
import { applySpecDifferences, type Doc, type SchemaNode } from '../test/support/spec-differences.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const DEFAULT_OUT = fileURLToPath(new URL('../test/support/reference/zulip-openapi.json', import.meta.url));
const SIZE_LIMIT = 1024 * 1024;

type Json = any;

/** Keeps OpenAPI's structure keywords; drops examples and x-* extensions. */
function schema(node: Json): Json {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, schema(sub)]));
    } else if (key === 'allOf' || key === 'oneOf' || key === 'anyOf') {
      out[key] = (value as Json[]).map(schema);
    } else if (key === 'items' || key === 'not' || key === 'additionalProperties') {
      out[key] = schema(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function mediaTypes(content: Json): Json {
  return Object.fromEntries(Object.entries(content as object).map(([type, media]) => [type, { schema: schema(media.schema) }]));
}

function parameter(node: Json): Json {
  if (node.$ref) return { $ref: node.$ref };
  const out: Json = { name: node.name, in: node.in };
  for (const key of ['required', 'deprecated', 'style', 'explode', 'allowEmptyValue']) if (key in node) out[key] = node[key];
  if (node.schema) out.schema = schema(node.schema);
  if (node.content) out.content = mediaTypes(node.content);
  return out;
}

function response(node: Json): Json {
  if (node.$ref) return { $ref: node.$ref };
  const out: Json = { description: node.description };
  if (node.content) out.content = mediaTypes(node.content);
  return out;
}

function mapValues(map: Json, change: (value: Json) => Json): Json {
  return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, change(value)]));
}

function trim(doc: Doc): Doc {
  const paths = mapValues(doc.paths, (item: Json) => {
    const out: Json = {};
    if (item.parameters) out.parameters = item.parameters.map(parameter);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      out[method] = {
        operationId: op.operationId,
        ...(op.deprecated ? { deprecated: true } : {}),
        ...(op.parameters ? { parameters: op.parameters.map(parameter) } : {}),
        responses: mapValues(op.responses, response),
      };
    }
    return out;
  });
  return {
    openapi: doc.openapi,
    info: { title: doc.info?.title, version: doc.info?.version },
    paths,
    components: {
      schemas: mapValues(doc.components.schemas, schema),
      responses: mapValues(doc.components.responses, response),
      parameters: mapValues(doc.components.parameters, parameter),
    },
  };
}

/** Every schema the checker compiles, in the checker's normalised form, keyed by where it came from. */
function compiledForms(source: Doc): Map<string, unknown> {
  const doc = applySpecDifferences(structuredClone(source));
  const normalizer = new Normalizer(doc);
  const forms = new Map<string, unknown>();
  for (const [template, item] of Object.entries(doc.paths as Record<string, SchemaNode>)) {
    for (const method of METHODS) {
      const op = item[method] as SchemaNode | undefined;
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: SchemaNode) => normalizer.deref(p));
      forms.set(`${method} ${template} operationId`, op.operationId);
      forms.set(`${method} ${template} path parameters`, params.filter((p) => p.in === 'path').map((p) => [p.name, normalizer.schema(p.schema ?? {})]));
      for (const [status, res] of Object.entries((op.responses ?? {}) as Record<string, SchemaNode>)) {
        const documented = normalizer.deref(res).content?.['application/json']?.schema;
        forms.set(`${method} ${template} ${status}`, documented === undefined ? undefined : normalizer.schema(documented));
      }
    }
  }
  for (const name of Object.keys(doc.components.schemas)) {
    forms.set(`components/schemas/${name}`, normalizer.schema({ $ref: `#/components/schemas/${name}` }));
  }
  return forms;
}

function main(): void {
  const [source, out = DEFAULT_OUT] = process.argv.slice(2);
  if (!source) {
    console.error('Usage: npx tsx scripts/extract-openapi.ts PATH/TO/zulip-openapi.yaml [OUT.json]');
    process.exit(2);
  }
  const full = YAML.parse(readFileSync(source, 'utf8')) as Doc;
  const trimmed = trim(full);
  const expected = compiledForms(full);
  const actual = compiledForms(trimmed);
  const differing = [...expected.keys()].filter((key) => !isDeepStrictEqual(expected.get(key), actual.get(key)));
  if (differing.length > 0 || expected.size !== actual.size) {
    throw new Error(`the trimmed document compiles differently at: ${differing.slice(0, 10).join(', ') || '(count)'}`);
  }
  const text = `${JSON.stringify(trimmed, null, 1)}\n`;
  const size = Buffer.byteLength(text);
  if (size >= SIZE_LIMIT) throw new Error(`the trimmed document is ${size} bytes, over the ${SIZE_LIMIT}-byte limit`);
  writeFileSync(out, text);
  console.log(`wrote ${out}: ${size} bytes, ${expected.size} compiled schemas checked against ${source}`);
}

main();
