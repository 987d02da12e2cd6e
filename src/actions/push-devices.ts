// Mobile devices registered for push notifications, and the test notification.
// The database row is the truth; the push transport (bouncer or log) is told after the commit.
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError, InvalidPushDeviceTokenError } from '../errors.js';
import { basePayload, type PushDevice, PushDeviceKind, pushTransportFor } from '../adapters/push/index.js';
import type { Services } from '../services.js';
import { runAction } from './context.js';
import { requireHuman } from '../lib/permissions.js';

const MAX_TOKEN_LENGTH = 4096;
const APP_ID = /^[.a-zA-Z0-9]+$/;

function checkPushToken(token: string, kind: number): void {
  // No device has a token with NUL in it, and the store could not hold one.
  if (token === '' || token.length > MAX_TOKEN_LENGTH || token.includes('\u0000')) throw new ApiError('Empty or invalid length token');
  // APNs tokens are hexadecimal.
  if (kind === PushDeviceKind.APNS && !/^([0-9a-fA-F]{2})+$/.test(token)) throw new ApiError('Invalid APNS token');
}

function checkAppId(appId: string): void {
  if (!APP_ID.test(appId)) throw new ApiError('Invalid app ID');
}

const asDevice = (row: { user_id: number; kind: number; token: string; ios_app_id: string | null }): PushDevice => ({
  userId: row.user_id,
  kind: row.kind,
  token: row.token,
  iosAppId: row.ios_app_id,
});

function logFailure(services: Services, what: string, error: unknown): void {
  services.log?.warn({ err: error }, `push transport: ${what} failed`);
}

/** Registers (or refreshes) a device of the user. */
export async function addPushDevice(
  services: Services,
  user: UserRow,
  realm: RealmRow,
  device: { kind: number; token: string; iosAppId: string | null },
): Promise<void> {
  requireHuman(user);
  checkPushToken(device.token, device.kind);
  if (device.iosAppId !== null) checkAppId(device.iosAppId);
  await runAction(services, user, realm, async (ctx) => {
    // One statement, so two concurrent registrations of the same token cannot both insert.
    await ctx.tx
      .insertInto('push_device_token')
      .values({ user_id: user.id, kind: device.kind, token: device.token, ios_app_id: device.iosAppId, last_updated: ctx.now })
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'kind', 'token']).doUpdateSet({ ios_app_id: device.iosAppId, last_updated: ctx.now }),
      )
      .execute();
  });
  try {
    await pushTransportFor(services).register({ userId: user.id, ...device });
  } catch (error) {
    // The device stays registered here; a test notification reports what the receiver thinks.
    logFailure(services, 'register', error);
  }
}

/** Forgets a device of the user; "Token does not exist" when it was never registered with that kind. */
export async function removePushDevice(services: Services, user: UserRow, realm: RealmRow, kind: number, token: string): Promise<void> {
  requireHuman(user);
  checkPushToken(token, kind);
  const removed = await runAction(services, user, realm, async (ctx) => {
    const row = await ctx.tx
      .selectFrom('push_device_token')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('kind', '=', kind)
      .where('token', '=', token)
      .executeTakeFirst();
    if (!row) throw new ApiError('Token does not exist');
    await ctx.tx.deleteFrom('push_device_token').where('id', '=', row.id).execute();
    return row;
  });
  try {
    await pushTransportFor(services).unregister(asDevice(removed));
  } catch (error) {
    logFailure(services, 'unregister', error);
  }
}

/** Sends the test notification to one device of the user (by token) or to all of them. */
export async function sendTestPushNotification(services: Services, user: UserRow, realm: RealmRow, token: string | null): Promise<void> {
  requireHuman(user);
  let query = services.db.selectFrom('push_device_token').selectAll().where('user_id', '=', user.id);
  if (token !== null) query = query.where('token', '=', token);
  // A token with NUL in it cannot have been registered (nor looked up on PostgreSQL).
  const rows = token !== null && token.includes('\u0000') ? [] : await query.orderBy('id').execute();
  if (token !== null && rows.length === 0) throw new InvalidPushDeviceTokenError();
  const transport = pushTransportFor(services);
  const base = basePayload(realm, user.id);
  const now = services.clock.now();
  for (const row of rows) await transport.sendTest(asDevice(row), base, now);
}
