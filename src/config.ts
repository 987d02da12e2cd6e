// One typed configuration with every default. Flags win over CONFAB_* environment variables.
import { resolve } from 'node:path';
import type { RateLimitRule } from './adapters/rate-limit/store.js';

export interface Config {
  host: string;
  port: number;
  /** Folder of the embedded SQLite store (confab.db). */
  dataDir: string;
  /** postgres://... selects PostgreSQL instead of the embedded store. */
  databaseUrl: string | null;
  /** Development mode: dev endpoints on, and a seeded demo organization on an empty store. */
  dev: boolean;
  /** Public URL of the server; defaults to http://host:port. */
  externalUrl: string | null;
  logLevel: string;
  /** Long-poll heartbeat window in seconds (a random point between min and max). */
  heartbeatMinSeconds: number;
  heartbeatMaxSeconds: number;
  /** Idle event queues are collected after this many seconds. */
  queueIdleSeconds: number;
  redisUrl: string | null;
  /** The WEB_PUBLIC_STREAMS_ENABLED server setting: whether any stream may be web-public. */
  webPublicStreamsEnabled: boolean;
  /** Push notification bouncer base URL; null delivers push notifications to the log instead. */
  pushBouncerUrl: string | null;
  /** smtp(s)://user:password@host:port for outgoing mail; null writes mail to the outbox folder. */
  smtpUrl: string | null;
  /** Sender address of outgoing mail; defaults to noreply@ the server's host. */
  mailFrom: string | null;
  /** Folder that receives outgoing mail when no SMTP server is set; defaults to <data-dir>/outbox. */
  mailOutboxDir: string | null;
  /** Every rate limit below at once; off answers no request with 429. */
  rateLimits: boolean;
  /** Rules as "REQUESTS/SECONDS", or "off". API requests per authenticated user (and, apart, event polls). */
  rateLimitUser: string;
  /** Unauthenticated requests per client address. */
  rateLimitIp: string;
  /** Password logins per username; a successful login clears the count. */
  rateLimitLogin: string;
  /** Failed authentications (wrong API keys or passwords) per client address. */
  rateLimitAuthIp: string;
  /** Comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: string | null;
  /** Where uploaded files live: null for <data-dir>/uploads, or s3://bucket?endpoint=...&region=...&prefix=... */
  storageUrl: string | null;
  /** The largest file a user may upload (MAX_FILE_UPLOAD_SIZE). */
  maxFileUploadSizeMib: number;
  /** Each organization's total of uploaded files; 0 for no limit. */
  uploadQuotaMib: number;
  /** Uploads that no message links are removed once this many days old. */
  unclaimedUploadDays: number;
  /** Prefix of every Redis key and channel, so several clusters can share one Redis. */
  redisPrefix: string;
  /** The URL other processes of the cluster reach this one at (default: the address it listens on). */
  advertiseUrl: string | null;
  /** Processes to run on this port (needs --redis-url and PostgreSQL); 1 runs this process alone. */
  workers: number;
  /** Prometheus metrics at /metrics; off by default. */
  metrics: boolean;
  /** When set, /metrics answers only requests with `Authorization: Bearer <token>` (and is on). */
  metricsToken: string | null;
  /**
   * Users without an uploaded avatar get a Gravatar (an outside service, which then learns who reads
   * the organization) instead of Confab's generated default (ENABLE_GRAVATAR).
   */
  enableGravatar: boolean;
}

export const defaultConfig: Config = {
  host: '127.0.0.1',
  port: 9991,
  dataDir: './data',
  databaseUrl: null,
  dev: false,
  externalUrl: null,
  logLevel: 'info',
  heartbeatMinSeconds: 45,
  heartbeatMaxSeconds: 55,
  queueIdleSeconds: 600,
  redisUrl: null,
  webPublicStreamsEnabled: false,
  pushBouncerUrl: null,
  smtpUrl: null,
  mailFrom: null,
  mailOutboxDir: null,
  rateLimits: true,
  rateLimitUser: '200/60',
  rateLimitIp: '100/60',
  rateLimitLogin: '5/1800',
  rateLimitAuthIp: '30/60',
  trustedProxies: null,
  storageUrl: null,
  maxFileUploadSizeMib: 25,
  uploadQuotaMib: 0,
  unclaimedUploadDays: 30,
  redisPrefix: 'confab:',
  advertiseUrl: null,
  workers: 1,
  metrics: false,
  metricsToken: null,
  enableGravatar: false,
};

type Key = keyof Config;
const FLAGS: Record<string, Key> = {
  host: 'host',
  port: 'port',
  'data-dir': 'dataDir',
  'database-url': 'databaseUrl',
  dev: 'dev',
  'external-url': 'externalUrl',
  'log-level': 'logLevel',
  'redis-url': 'redisUrl',
  'web-public-streams-enabled': 'webPublicStreamsEnabled',
  'push-bouncer-url': 'pushBouncerUrl',
  'smtp-url': 'smtpUrl',
  'mail-from': 'mailFrom',
  'mail-outbox-dir': 'mailOutboxDir',
  'rate-limits': 'rateLimits',
  'rate-limit-user': 'rateLimitUser',
  'rate-limit-ip': 'rateLimitIp',
  'rate-limit-login': 'rateLimitLogin',
  'rate-limit-auth-ip': 'rateLimitAuthIp',
  'trusted-proxies': 'trustedProxies',
  'storage-url': 'storageUrl',
  'max-file-upload-size-mib': 'maxFileUploadSizeMib',
  'upload-quota-mib': 'uploadQuotaMib',
  'unclaimed-upload-days': 'unclaimedUploadDays',
  'redis-prefix': 'redisPrefix',
  'advertise-url': 'advertiseUrl',
  workers: 'workers',
  metrics: 'metrics',
  'metrics-token': 'metricsToken',
  'enable-gravatar': 'enableGravatar',
};

const RATE_LIMIT_RULES = ['rateLimitUser', 'rateLimitIp', 'rateLimitLogin', 'rateLimitAuthIp'] as const;

function coerce(key: Key, value: string): Config[Key] {
  const current = defaultConfig[key];
  if (typeof current === 'number') {
    const n = Number(value);
    if (!Number.isFinite(n)) throw new Error(`--${key} needs a number, got '${value}'`);
    return n;
  }
  if (typeof current === 'boolean') return !['false', '0', '', 'off', 'no'].includes(value.toLowerCase());
  return value;
}

/** Builds a Config from parsed CLI flags and the environment (CONFAB_PORT, CONFAB_DATABASE_URL, ...). */
export function loadConfig(flags: Record<string, string | boolean>, env: NodeJS.ProcessEnv = process.env): Config {
  const config: Config = { ...defaultConfig };
  const set = (key: Key, value: string) => {
    (config as unknown as Record<string, unknown>)[key] = coerce(key, value);
  };
  for (const [flag, key] of Object.entries(FLAGS)) {
    const envValue = env[`CONFAB_${flag.toUpperCase().replace(/-/g, '_')}`];
    if (envValue !== undefined) set(key, envValue);
  }
  for (const [flag, value] of Object.entries(flags)) {
    const key = FLAGS[flag];
    if (key) set(key, value === true ? 'true' : String(value));
  }
  config.dataDir = resolve(config.dataDir);
  for (const key of RATE_LIMIT_RULES) rateLimitRule(config[key]);
  if (config.redisUrl && !config.databaseUrl) {
    throw new Error('--redis-url joins processes that share one database: it needs --database-url postgres://... (the embedded store belongs to one process)');
  }
  if (!Number.isInteger(config.workers) || config.workers < 1) throw new Error(`--workers needs a whole number of at least 1, got '${config.workers}'`);
  if (config.workers > 1 && !config.redisUrl) throw new Error('--workers runs several processes, which share events through Redis: it needs --redis-url (and --database-url)');
  return config;
}

/** A rule written "REQUESTS/SECONDS" (e.g. 200/60); null for "off". */
export function rateLimitRule(text: string): RateLimitRule | null {
  if (text.trim().toLowerCase() === 'off') return null;
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  const requests = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (!match || requests < 1 || !(seconds > 0)) {
    throw new Error(`A rate limit is REQUESTS/SECONDS (such as 200/60) or off, not '${text}'`);
  }
  return { requests, seconds };
}

export function externalUrl(config: Config): string {
  return (config.externalUrl ?? `http://${config.host}:${config.port}`).replace(/\/$/, '');
}
