// Files on local disk under one root folder (by default <data-dir>/uploads). Spooled uploads wait
// in <root>/.incoming, on the same file system, so storing one is a rename.
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type ByteRange, checkKey, type FileStorage, type SpooledFile, type StoredObject } from './types.js';

export class DiskStorage implements FileStorage {
  readonly kind = 'disk' as const;
  readonly spoolDir: string;

  constructor(readonly root: string) {
    this.spoolDir = join(root, '.incoming');
  }

  private pathOf(key: string): string {
    return join(this.root, checkKey(key));
  }

  async putFile(key: string, file: SpooledFile): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    await rename(file.path, target);
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const size = await this.stat(key);
    if (size === null) return null;
    const body = createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    return { size, body };
  }

  async stat(key: string): Promise<number | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? info.size : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

/** The default storage: local disk under <data-dir>/uploads. */
export function diskStorageIn(dataDir: string): DiskStorage {
  return new DiskStorage(join(dataDir, 'uploads'));
}
