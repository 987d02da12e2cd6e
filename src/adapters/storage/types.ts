// The one interface every kind of file storage offers: message uploads now, and avatars, emoji
// and realm icons later (each under its own key prefix). Keys are '/'-separated and never begin
// with '/' or hold '..' segments; callers build them, and the backends check them anyway.
import type { Readable } from 'node:stream';

/** A file already written to local disk (a spooled upload), ready to be stored. */
export interface SpooledFile {
  path: string;
  size: number;
  /** Hex SHA-256 of the contents (S3 signs it). */
  sha256: string;
}

export interface StoredObject {
  /** The whole object's size, whatever range was asked for. */
  size: number;
  body: Readable;
}

/** Inclusive byte range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileStorage {
  readonly kind: 'disk' | 's3';
  /** Local folder for uploads being received, before they are stored. */
  readonly spoolDir: string;
  /** Stores a spooled file under key; the spooled file is consumed (moved or deleted). */
  putFile(key: string, file: SpooledFile, contentType: string): Promise<void>;
  /** The object (or a range of it); null when there is none. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  /** Size of the object, or null when there is none. */
  stat(key: string): Promise<number | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
}

/** Refuses keys that could reach outside the storage's root. */
export function checkKey(key: string): string {
  const parts = key.split('/');
  if (key.length === 0 || key.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) {
    throw new Error(`bad storage key: ${JSON.stringify(key)}`);
  }
  return key;
}
