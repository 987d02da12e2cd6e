// Sending widget messages and reading their submessages, for the widget and submessage tests.
import type { DevUserName } from '../../src/dev-seed.js';
import { expectSuccess } from './client.js';
import type { TestContext } from './context.js';

/** A stream message sent to general; answers its id. */
export async function sendToGeneral(ctx: TestContext, from: DevUserName, content: string, topic = 'widgets'): Promise<number> {
  return expectSuccess(await ctx.as(from).post('/messages', { type: 'stream', to: 'general', topic, content })).id as number;
}

/** A message's `submessages`, as one of its readers fetches it. */
export async function submessagesOf(ctx: TestContext, id: number, reader: DevUserName = 'mona'): Promise<Array<Record<string, unknown>>> {
  return expectSuccess(await ctx.as(reader).get(`/messages/${id}`)).message.submessages as Array<Record<string, unknown>>;
}
