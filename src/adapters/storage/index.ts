// Chooses the storage backend from the configuration, once per running server.
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { diskStorageIn } from './disk.js';
import type { FileStorage } from './types.js';

export type { ByteRange, FileStorage, SpooledFile, StoredObject } from './types.js';

/** Local disk under <data-dir>/uploads unless an s3:// storage URL is set. */
export async function openStorage(config: Pick<Config, 'storageUrl' | 'dataDir'>): Promise<FileStorage> {
  if (!config.storageUrl) return diskStorageIn(config.dataDir);
  // The S3 client loads only when S3 is configured.
  const { S3Storage, s3OptionsFromUrl } = await import('./s3.js');
  return new S3Storage({ ...s3OptionsFromUrl(config.storageUrl), spoolDir: join(config.dataDir, 'uploads-incoming') });
}
