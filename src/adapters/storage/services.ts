// The running server's file storage: the one Services was given, else one opened from the
// configuration on first use (disk needs no setup; S3 loads its client lazily).
import type { Services } from '../../services.js';
import { diskStorageIn } from './disk.js';
import type { FileStorage } from './types.js';

const opened = new WeakMap<Services, FileStorage>();

export function storageOf(services: Services): FileStorage {
  if (services.storage) return services.storage;
  let storage = opened.get(services);
  if (!storage) {
    if (services.config.storageUrl) throw new Error('S3 storage is opened when the server starts (openStorage)');
    storage = diskStorageIn(services.config.dataDir);
    opened.set(services, storage);
  }
  return storage;
}
