// Connections to Redis, made only by servers started with --redis-url (ioredis is loaded then).
import type { Redis, RedisOptions } from 'ioredis';

export type { Redis };

export interface RedisConnectOptions {
  /** Shown in Redis's CLIENT LIST, to tell the connections apart. */
  name: string;
  /**
   * Commands wait while Redis is away and are sent when it is back (the event bus's publishes,
   * which must not be lost) instead of failing after a retry (requests' own commands).
   */
  waitForever?: boolean;
}

/** Reconnect quickly at first, then every 2 s, for as long as it takes. */
const retryStrategy = (attempt: number) => Math.min(attempt * 100, 2000);

export async function connectRedis(url: string, options: RedisConnectOptions): Promise<Redis> {
  const { Redis: Client } = await import('ioredis');
  const settings: RedisOptions = {
    lazyConnect: true,
    connectionName: options.name,
    retryStrategy,
    maxRetriesPerRequest: options.waitForever ? null : 1,
    // A command that cannot be sent within this time fails (and the request with it) rather than hang.
    ...(options.waitForever ? {} : { commandTimeout: 2000 }),
  };
  const client = new Client(url, settings);
  // Errors reach the commands that fail; the connection itself keeps retrying.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}
