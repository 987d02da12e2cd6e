// The file storages upload tests run on: local disk always, and S3 through a real S3-protocol
// server (s3rver) started by the test on a free port, in a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { DiskStorage } from '../../src/adapters/storage/disk.js';
import { S3Storage } from '../../src/adapters/storage/s3.js';
import type { FileStorage } from '../../src/adapters/storage/types.js';

export type StorageKind = 'disk' | 's3';
export const STORAGE_KINDS: StorageKind[] = ['disk', 's3'];

export interface TestStorage {
  storage: FileStorage;
  close(): Promise<void>;
}

export async function openTestStorage(kind: StorageKind): Promise<TestStorage> {
  const dir = mkdtempSync(join(tmpdir(), `confab-${kind}-`));
  if (kind === 'disk') {
    return { storage: new DiskStorage(join(dir, 'uploads')), close: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'uploads', configs: [] }] });
  const { port } = await server.run();
  const storage = new S3Storage({
    bucket: 'uploads',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    prefix: 'confab',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    spoolDir: join(dir, 'spool'),
  });
  return {
    storage,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
