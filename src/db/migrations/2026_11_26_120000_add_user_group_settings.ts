// User groups that people create: who may mention a group (a group id, as the reference's
// can_mention_group), and groups inside groups (direct subgroups; system groups keep theirs
// implied by roles). Existing groups get the reference's defaults: role:nobody for system groups,
// role:everyone for the rest.
import type { Kysely } from 'kysely';
import { sql } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_group').addColumn('can_mention_group_id', 'integer').execute();
  await db.schema
    .createTable('user_group_subgroup')
    .addColumn('supergroup_id', 'integer', (c) => c.notNull())
    .addColumn('subgroup_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_group_subgroup_pk', ['supergroup_id', 'subgroup_id'])
    .execute();
  await sql`CREATE INDEX user_group_subgroup_sub ON user_group_subgroup (subgroup_id)`.execute(db);
  await sql`UPDATE user_group SET can_mention_group_id = (
      SELECT s.id FROM user_group s WHERE s.realm_id = user_group.realm_id AND s.is_system_group = 1
        AND s.name = CASE WHEN user_group.is_system_group = 1 THEN 'role:nobody' ELSE 'role:everyone' END)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_group_subgroup').ifExists().execute();
  await db.schema.alterTable('user_group').dropColumn('can_mention_group_id').execute();
}
