// Calls the API the way clients do: Basic auth, query strings for GET, form-encoded bodies
// otherwise, JSON inside values for non-strings. Requests go to the HTTP server's own request
// listener (so event polls take the same path as on a real connection), without a socket.
// Every response is checked against the reference OpenAPI document unless the call says undocumented.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import inject from 'light-my-request';
import type { UserRow } from '../../src/db/schema.js';
import { checkResponse } from './openapi-check.js';

export type Params = Record<string, unknown>;

export interface ApiResponse {
  status: number;
  body: Record<string, any>;
  headers: Record<string, unknown>;
}

export interface CallOptions {
  /** Skip the OpenAPI check (for routes the reference does not document). */
  undocumented?: boolean;
  headers?: Record<string, string>;
}

export function encodeParams(params: Params): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    search.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return search.toString();
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** What the app's HTTP server calls for each request, once the app is ready. */
async function requestListener(app: FastifyInstance): Promise<Listener> {
  await app.ready();
  return app.server.listeners('request')[0] as Listener;
}

export class ApiClient {
  constructor(
    private readonly app: FastifyInstance,
    private readonly authorization: string | null,
  ) {}

  static basic(email: string, apiKey: string): string {
    return `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
  }

  async call(method: string, path: string, params: Params = {}, options: CallOptions = {}): Promise<ApiResponse> {
    const encoded = encodeParams(params);
    const inQuery = method === 'GET' || method === 'HEAD';
    const url = `/api/v1${path}${inQuery && encoded ? `?${encoded}` : ''}`;
    const headers: Record<string, string> = { ...options.headers };
    if (this.authorization) headers.authorization = this.authorization;
    if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await inject(await requestListener(this.app), {
      method: method as 'GET',
      url,
      headers,
      ...(inQuery ? {} : { payload: encoded }),
    });
    const body = res.body === '' ? {} : JSON.parse(res.body);
    const response = { status: res.statusCode, body, headers: res.headers };
    if (!options.undocumented) checkResponse(method, path, response);
    return response;
  }

  get = (path: string, params?: Params, options?: CallOptions) => this.call('GET', path, params, options);
  post = (path: string, params?: Params, options?: CallOptions) => this.call('POST', path, params, options);
  patch = (path: string, params?: Params, options?: CallOptions) => this.call('PATCH', path, params, options);
  delete = (path: string, params?: Params, options?: CallOptions) => this.call('DELETE', path, params, options);
}

export function clientFor(app: FastifyInstance, user: Pick<UserRow, 'delivery_email' | 'api_key'> | null): ApiClient {
  return new ApiClient(app, user ? ApiClient.basic(user.delivery_email, user.api_key) : null);
}

/** Asserts a success body and returns it. */
export function expectSuccess(res: ApiResponse): Record<string, any> {
  assert.equal(res.body.result, 'success', `expected success, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.msg, '');
  return res.body;
}

/** Asserts an error with the exact message, code and status (400 unless told). */
export function expectError(res: ApiResponse, msg: string, code = 'BAD_REQUEST', status = 400): Record<string, any> {
  assert.deepEqual(
    { status: res.status, result: res.body.result, msg: res.body.msg, code: res.body.code },
    { status, result: 'error', msg, code },
  );
  return res.body;
}
