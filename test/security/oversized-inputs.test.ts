// Every route of src/routes.ts, called by the owner (who may do the most) with oversized input:
// strings of hundreds of kilobytes, lists of tens of thousands of ids, emails and objects, narrows
// of thousands of terms and searches of tens of thousands of words, deeply nested JSON, objects of
// thousands of keys. Each value goes into every parameter at once, and into each parameter alone
// beside plausible values for the others. A declared parameter that is too large gets a 4xx;
// nothing gets a 5xx; and no request takes long (each one holds the event loop, so a slow one
// stalls every other client).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '../../src/routes.js';
import type { Endpoint } from '../../src/http/endpoint.js';
import { isUploadRoute } from '../../src/http/upload-receive.js';
import { ApiClient } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { buildRequest, type Encoding, pathSegments, percentEncode, preview } from '../support/fuzz-input.js';
import { cpuStopwatch } from '../support/cpu-time.js';
import { multipartBody, type MultipartPart } from '../support/multipart.js';

/**
 * Parameters where a value past every limit may still succeed, with why. A topic longer than
 * any topic can be names none: deleting it has nothing to do, as on the reference server.
 */
const MAY_SUCCEED = new Set(['POST /streams/:stream_id/delete_topic topic_name']);

const LIST_NAME = /(s|_ids|^to|principals|data)$/;

/**
 * Generous: the aim is ~100 ms, but test machines are shared (two test processes and PostgreSQL on
 * two cores) and oversized bodies take a while just to arrive and parse. The unbounded requests
 * this walk was written against took 7 to 38 s, and most of them also answered 200 or 500.
 */
const MAX_REQUEST_MS = 3000;

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const manyWords = (n: number) => range(n).map((i) => `word${i % 997}`).join(' ');

// Each well past every limit of src/lib/limits.ts, and small enough for the file to stay quick.
const OVERSIZED: Array<[string, string]> = [
  ['50,000 ids', JSON.stringify(range(50_000))],
  ['a 300 KB string', 'x'.repeat(300_000)],
  ['10,000 emails', JSON.stringify(range(10_000).map((i) => `user${i}@confab.test`))],
  ['5,000 objects', JSON.stringify(range(5000).map((i) => ({ name: `stream ${i}`, operator: 'search', operand: `w${i}` })))],
  ['3,000 narrow terms', JSON.stringify(range(3000).map((i) => ({ operator: 'topic', operand: `t${i}`, negated: true })))],
  ['a search of 30,000 words', JSON.stringify([{ operator: 'search', operand: manyWords(30_000) }])],
  ['JSON nested 20,000 deep', '['.repeat(20_000) + ']'.repeat(20_000)],
  ['an object of 5,000 keys', JSON.stringify(Object.fromEntries(range(5000).map((i) => [`k${i}`, i])))],
];

/**
 * GET parameters travel in the request head, which Node (and raw-polls.ts) refuse past 16 KB:
 * these are past the limits yet fit in one, a parameter at a time.
 */
const HEAD_SIZED: Array<[string, string]> = [
  ['2,000 ids', JSON.stringify(range(2000))],
  ['a 12 KB string', 'x'.repeat(12_000)],
  ['60 narrow terms', JSON.stringify(range(60).map(() => ['is', 'starred']))],
  ['a search of 3,000 characters', JSON.stringify([['search', manyWords(300)]])],
  ['JSON nested 2,000 deep', '['.repeat(2000) + ']'.repeat(2000)],
];

for (const dialect of testDialects()) {
  describe(`Oversized input to every route [${dialect}]`, () => {
    let ctx: TestContext;
    let auth: string;

    before(async () => {
      ctx = await setup(dialect);
      Object.assign(ctx.services.config, { heartbeatMinSeconds: 0.01, heartbeatMaxSeconds: 0.02 });
      auth = ApiClient.basic(ctx.seed.users.olivia.delivery_email, ctx.seed.users.olivia.api_key);
    });
    after(() => ctx.close());

    /** A value the parameter would take, so that the oversized one is what the route looks at. */
    function plausible(name: string): string {
      const { users, streams } = ctx.seed;
      if (name.includes('email') || name === 'username') return 'mona@confab.test';
      if (name === 'narrow') return '[]';
      if (name === 'anchor') return 'newest';
      if (name === 'op') return 'add';
      if (name === 'flag') return 'starred';
      if (name === 'subscriptions') return '[{"name":"general"}]';
      if (name === 'principals' || name === 'to') return `[${users.mona.id}]`;
      if (name.endsWith('_ids') || name === 'messages') return `[${streams.general.id}]`;
      if (name.endsWith('_id') || name.startsWith('num_')) return String(name.includes('stream') ? streams.general.id : 1);
      return 'general';
    }

    async function send(route: Endpoint, params: Array<[string, string]>, encoding: Encoding, failures: string[], label: string) {
      const path = Object.fromEntries(
        pathSegments(route.url).flatMap((s) => ('param' in s ? [[s.param, percentEncode(plausible(s.param))]] : [])),
      );
      // Bodies are encoded natively: megabytes through the fuzz helpers' byte-by-byte encoder take seconds.
      const req = buildRequest(route, path, encoding === 'query' ? params : [], encoding, auth);
      if (encoding === 'form') req.payload = new URLSearchParams(params).toString();
      if (encoding === 'json') req.payload = JSON.stringify(Object.fromEntries(params));
      const what = `${route.method} ${route.url} with ${label} (${encoding})`;
      const cpuMs = cpuStopwatch();
      const res = await ctx.app.inject({ method: req.method, url: req.url, headers: req.headers, payload: req.payload });
      const took = cpuMs();
      if (took > MAX_REQUEST_MS) failures.push(`${what}: took ${took.toFixed(0)} ms of CPU`);
      let body: any;
      try {
        body = JSON.parse(res.body);
      } catch {
        failures.push(`${what}: ${res.statusCode} with a body that is not JSON: ${preview(res.body)}`);
        return;
      }
      const clientError = res.statusCode >= 400 && res.statusCode < 500 && body?.result === 'error' && typeof body.code === 'string';
      const declared = params.some(([name]) => name in route.params && !MAY_SUCCEED.has(`${route.method} ${route.url} ${name}`));
      if (declared ? !clientError : res.statusCode >= 500 || (res.statusCode === 200 && body?.result !== 'success')) {
        failures.push(`${what}: ${res.statusCode} ${preview(res.body)}`);
      }
      // The owner may deactivate or demote themselves with a success; keep the account usable.
      if (res.statusCode === 200 && req.method !== 'GET') {
        const user = ctx.seed.users.olivia;
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1, role: user.role, api_key: user.api_key }).where('id', '=', user.id).execute();
      }
    }

    for (const route of routes) {
      it(`${route.method} ${route.url}`, async () => {
        const failures: string[] = [];
        const names = Object.entries(route.params).filter(([, param]) => !param.inPath).map(([name]) => name);
        const inHead = route.method === 'GET';
        const values = inHead ? HEAD_SIZED : OVERSIZED;
        if (!inHead || names.length <= 1) {
          for (const [label, value] of values) {
            const params = (names.length > 0 ? names : ['unknown']).map((name): [string, string] => [name, value]);
            await send(route, params, inHead ? 'query' : 'form', failures, `every parameter = ${label}`);
          }
        }
        // Each parameter alone, with the values in turn (the list of ids, what most limits are about, first).
        for (const [i, name] of names.entries()) {
          const chosen = [values[i % values.length]!];
          // Parameters that hold lists also get the list of ids, and narrows the narrow-shaped values.
          if (i % values.length !== 0 && LIST_NAME.test(name)) chosen.push(values[0]!);
          if (name === 'narrow') chosen.push(...values.filter(([label]) => /narrow|search/.test(label)));
          for (const [label, value] of chosen) {
            const params = names.map((other): [string, string] => [other, other === name ? value : plausible(other)]);
            await send(route, params, inHead ? 'query' : 'json', failures, `${name} = ${label}`);
          }
        }
        assert.equal(failures.length, 0, `${failures.length} bad answers:\n  ${failures.slice(0, 15).join('\n  ')}`);
      });
    }

    // Multipart bodies carrying file parts. Sent without credentials, a route that takes no file
    // refuses the first file part before anything else (a 400, not a 401); an upload route
    // authenticates first (a 401). With the owner's credentials, an upload route refuses the
    // second file. GET bodies are never read.
    for (const route of routes) {
      it(`${route.method} ${route.url} with file parts`, async () => {
        const names = Object.entries(route.params).filter(([, param]) => !param.inPath).map(([name]) => name);
        const parts: MultipartPart[] = names.map((name) => ({ name, value: plausible(name) }));
        for (let i = 0; i < 3; i++) parts.push({ name: `file${i}`, filename: `f${i}.bin`, value: Buffer.alloc(1024 * 1024, i), contentType: 'application/octet-stream' });
        const { payload, contentType } = multipartBody(parts);
        const path = Object.fromEntries(
          pathSegments(route.url).flatMap((s) => ('param' in s ? [[s.param, percentEncode(plausible(s.param))]] : [])),
        );
        const { url } = buildRequest(route, path, [], 'query', auth);
        const upload = isUploadRoute(route, ctx.services);
        const failures: string[] = [];
        for (const credentials of [null, auth]) {
          const headers: Record<string, string> = { 'content-type': contentType, ...(credentials ? { authorization: credentials } : {}) };
          const res = await ctx.app.inject({ method: route.method, url, headers, payload });
          const body = JSON.parse(res.body);
          const what = `${credentials ? 'with' : 'without'} credentials: ${res.statusCode} ${preview(res.body)}`;
          if (route.method === 'GET') {
            if (res.statusCode >= 500) failures.push(what);
          } else if (upload) {
            if (credentials ? res.statusCode !== 400 : res.statusCode !== 401 || body.code !== 'UNAUTHORIZED') failures.push(what);
          } else if (res.statusCode !== 400 || body.msg !== 'This endpoint does not accept file uploads') {
            failures.push(what);
          }
        }
        assert.equal(failures.length, 0, failures.join('\n'));
      });
    }
  });
}
