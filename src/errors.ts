// Every error a client can be shown. Code throws these; one handler renders
// them as {result: "error", msg, code, ...data} (see http/error-handler.ts).

export type ErrorData = Record<string, unknown>;

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: ErrorData;
  readonly headers: Record<string, string>;

  constructor(
    msg: string,
    options: { code?: string; status?: number; data?: ErrorData; headers?: Record<string, string> } = {},
  ) {
    super(msg);
    this.code = options.code ?? 'BAD_REQUEST';
    this.status = options.status ?? 400;
    this.data = options.data ?? {};
    this.headers = options.headers ?? {};
  }

  body(): Record<string, unknown> {
    return { result: 'error', msg: this.message, code: this.code, ...this.data };
  }
}

export const badRequest = (msg: string, data?: ErrorData) => new ApiError(msg, { data });

export class RequestVariableMissingError extends ApiError {
  constructor(varName: string) {
    super(`Missing '${varName}' argument`, { code: 'REQUEST_VARIABLE_MISSING', data: { var_name: varName } });
  }
}

export class RequestConfusingVarError extends ApiError {
  constructor(varName: string, alias: string) {
    super(`Can't decide between '${varName}' and '${alias}' arguments`, {
      code: 'REQUEST_CONFUSING_VAR',
      data: { var_name: varName },
    });
  }
}

export class InvalidJsonError extends ApiError {
  constructor() {
    super('Malformed JSON', { code: 'INVALID_JSON' });
  }
}

export const BASIC_AUTH_HEADER = { 'WWW-Authenticate': 'Basic realm="zulip"' };

/** Every credential failure over HTTP Basic is a 401 UNAUTHORIZED carrying the specific text. */
export class UnauthorizedError extends ApiError {
  constructor(msg = 'Not logged in: API authentication or user session required') {
    super(msg, { code: 'UNAUTHORIZED', status: 401, headers: BASIC_AUTH_HEADER });
  }
}

export class NotFoundError extends ApiError {
  constructor(msg = 'Not Found') {
    super(msg, { status: 404 });
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(allowed: string[]) {
    super('Method Not Allowed', { status: 405, data: { allowed_methods: allowed } });
  }
}

export class UnauthorizedPrincipalError extends ApiError {
  constructor(msg = 'Must be an organization administrator') {
    super(msg, { code: 'UNAUTHORIZED_PRINCIPAL' });
  }
}

export class BadNarrowError extends ApiError {
  constructor(desc: string) {
    super(`Invalid narrow operator: ${desc}`, { code: 'BAD_NARROW', data: { desc } });
  }
}

/** A retry's key was first used with other parameters: answering either request would be wrong. */
export class IdempotencyKeyReusedError extends ApiError {
  constructor() {
    super('Idempotency-Key already used for a different request', { code: 'IDEMPOTENCY_KEY_REUSED', status: 422 });
  }
}

export class StreamDoesNotExistError extends ApiError {
  constructor(stream: string) {
    super(`Channel '${stream}' does not exist`, { code: 'STREAM_DOES_NOT_EXIST', data: { stream } });
  }
}

export class StreamIdDoesNotExistError extends ApiError {
  constructor(streamId: number | string) {
    super(`Channel with ID '${streamId}' does not exist`, {
      code: 'STREAM_DOES_NOT_EXIST',
      data: { stream_id: typeof streamId === 'number' ? streamId : Number(streamId) },
    });
  }
}

export class InvalidMessageError extends ApiError {
  constructor() {
    super('Invalid message(s)');
  }
}

export class CannotDeactivateLastUserError extends ApiError {
  constructor(isLastOwner: boolean) {
    const entity = isLastOwner ? 'organization owner' : 'user';
    super(`Cannot deactivate the only ${entity}`, {
      code: 'CANNOT_DEACTIVATE_LAST_USER',
      data: { is_last_owner: isLastOwner, entity },
    });
  }
}

export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number, headers: Record<string, string> = {}) {
    super('API usage exceeded rate limit', {
      code: 'RATE_LIMIT_HIT',
      status: 429,
      data: { 'retry-after': retryAfterSeconds },
      headers: { ...headers, 'Retry-After': String(Math.ceil(retryAfterSeconds)) },
    });
  }
}

/**
 * The store is away, full or too busy: worth retrying later. The reference has no code for this;
 * DATABASE_UNAVAILABLE names it, and `retry-after` mirrors the rate limit's.
 */
export class DatabaseUnavailableError extends ApiError {
  static readonly TEXTS = {
    unavailable: { msg: 'The database is unavailable; try again later', retryAfter: 5 },
    busy: { msg: 'The database is busy; try again later', retryAfter: 1 },
    full: { msg: 'The database is out of space; try again later', retryAfter: 60 },
  } as const;

  constructor(kind: keyof typeof DatabaseUnavailableError.TEXTS) {
    const { msg, retryAfter } = DatabaseUnavailableError.TEXTS[kind];
    super(msg, {
      code: 'DATABASE_UNAVAILABLE',
      status: 503,
      data: { 'retry-after': retryAfter },
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

/** A file could not be written for lack of disk space (an upload's spool file, say). */
export class DiskFullError extends ApiError {
  constructor() {
    super('The server is out of disk space; try again later', {
      code: 'DISK_FULL',
      status: 503,
      data: { 'retry-after': 60 },
      headers: { 'Retry-After': '60' },
    });
  }
}

/**
 * In a cluster, Redis (which says which process holds an event queue) cannot be reached: the
 * queue may well be alive elsewhere, so the client is to try again rather than register anew.
 */
export class ClusterUnavailableError extends ApiError {
  constructor() {
    super('The cluster cannot be reached (Redis is unavailable); try again later', {
      code: 'CLUSTER_UNAVAILABLE',
      status: 503,
      data: { 'retry-after': 5 },
      headers: { 'Retry-After': '5' },
    });
  }
}

/** A request that arrives while the server stops: the client is to try again (the next server). */
export class ServerShuttingDownError extends ApiError {
  constructor() {
    super('The server is shutting down; try again shortly', {
      code: 'SERVER_SHUTTING_DOWN',
      status: 503,
      data: { 'retry-after': 1 },
      headers: { 'Retry-After': '1', Connection: 'close' },
    });
  }
}

export class InvalidApiKeyError extends ApiError {
  constructor() {
    super('Invalid API key', { code: 'INVALID_API_KEY', status: 401 });
  }
}

export class UserDeactivatedError extends ApiError {
  constructor() {
    super('Account is deactivated', { code: 'USER_DEACTIVATED', status: 401 });
  }
}

export class RealmDeactivatedError extends ApiError {
  constructor() {
    super('This organization has been deactivated', { code: 'REALM_DEACTIVATED', status: 401 });
  }
}

export class AuthenticationFailedError extends ApiError {
  constructor() {
    super('Your username or password is incorrect', { code: 'AUTHENTICATION_FAILED', status: 401 });
  }
}

export class InvalidOperatorCombinationError extends ApiError {
  constructor(desc: string) {
    super(`Invalid narrow operator combination: ${desc}`, { code: 'BAD_NARROW', data: { desc } });
  }
}

export class InvalidSubdomainError extends ApiError {
  constructor() {
    super('Invalid subdomain', { code: 'NONEXISTENT_SUBDOMAIN', status: 404 });
  }
}

export class BadEventQueueIdError extends ApiError {
  constructor(queueId: string) {
    super(`Bad event queue ID: ${queueId}`, { code: 'BAD_EVENT_QUEUE_ID', data: { queue_id: queueId } });
  }
}

export class InvalidPushDeviceTokenError extends ApiError {
  constructor() {
    super('Device not recognized', { code: 'INVALID_PUSH_DEVICE_TOKEN' });
  }
}

export class InvalidRemotePushDeviceTokenError extends ApiError {
  constructor() {
    super('Device not recognized by the push bouncer', { code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN' });
  }
}

/** A value of the right type that the setting does not take. */
export class RequestVariableInvalidError extends ApiError {
  constructor(name: string, value: unknown) {
    super(`Bad value for '${name}': ${String(value)}`, { code: 'REQUEST_VARIABLE_INVALID', data: { var_name: name, bad_value: value } });
  }
}
