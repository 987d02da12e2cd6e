// Helpers for tests of user groups: find a group by name, make one through the API.
import type { DevUserName } from '../../src/dev-seed.js';
import { expectSuccess } from './client.js';
import type { TestContext } from './context.js';

export async function groupId(ctx: TestContext, name: string): Promise<number> {
  const row = await ctx.services.db.selectFrom('user_group').select('id').where('realm_id', '=', ctx.seed.realm.id).where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}

/** Creates a group as `who` (an owner by default); returns its id. */
export async function createGroup(
  ctx: TestContext,
  name: string,
  options: { members?: number[]; description?: string; can_mention_group?: number; who?: DevUserName } = {},
): Promise<number> {
  const { who = 'olivia', description = '', members = [], ...rest } = options;
  return expectSuccess(await ctx.as(who).post('/user_groups/create', { name, description, members, ...rest })).group_id;
}

/** The group as GET /user_groups lists it. */
export async function listedGroup(ctx: TestContext, id: number): Promise<Record<string, any> | undefined> {
  const groups = expectSuccess(await ctx.as('olivia').get('/user_groups')).user_groups as Array<Record<string, any>>;
  return groups.find((g) => g.id === id);
}
