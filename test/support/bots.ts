// Creating bots through the API in tests, and calling the API as them.
import type { DevUserName } from '../../src/dev-seed.js';
import type { ApiClient } from './client.js';
import { clientFor, expectSuccess } from './client.js';
import type { TestContext } from './context.js';

export interface CreatedBot {
  id: number;
  email: string;
  apiKey: string;
  client: ApiClient;
}

/** The /bots routes are not in the reference's OpenAPI document. */
export const undocumented = { undocumented: true } as const;

export async function createBot(ctx: TestContext, owner: DevUserName, shortName: string, params: Record<string, unknown> = {}): Promise<CreatedBot> {
  const body = expectSuccess(
    await ctx.as(owner).post('/bots', { full_name: `${shortName} Bot`, short_name: shortName, ...params }, undocumented),
  );
  const email = `${shortName}-bot@confab.test`;
  return { id: body.user_id, email, apiKey: body.api_key, client: clientFor(ctx.app, { delivery_email: email, api_key: body.api_key }) };
}
