// Uploaded images Confab can preview (image_attachment): one row per attachment whose header
// parsed as an image within the thumbnailer's pixel limit, with its size and frame count. An
// upload without a row (not an image, unreadable, or a decompression bomb) is only ever linked.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('image_attachment')
    .addColumn('attachment_id', 'integer', (c) => c.primaryKey())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('frames', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('image_attachment').ifExists().execute();
}
