// What a move to another stream does to each person's hold on the moved messages. Reads grant
// access to anyone holding a user_message row, so a row may only survive a move when its holder
// can read the messages in their new place; otherwise the move would carry access with it.
import type { StreamRow, UserRow } from '../types/rows.js';
import { canAccessStreamHistory } from './permissions.js';

type Destination = Pick<StreamRow, 'invite_only' | 'history_public_to_subscribers' | 'is_web_public'>;

/** Where one person stands when messages leave one stream for another. */
export interface MoveParty extends Pick<UserRow, 'role'> {
  /** Subscribed to the destination now (deactivated accounts included). */
  onTarget: boolean;
  /** Subscribed to the origin at any time, now or in the past. */
  everOnOrigin: boolean;
  /** Holds a user_message row for one of the moved messages. */
  holdsRow: boolean;
}

export interface MoveOutcome {
  /** May read the messages where they now are. */
  keepsAccess: boolean;
  /** Loses their user_message rows for the moved messages. */
  dropsRows: boolean;
  /** Is sent delete_message: they may have the messages loaded and can no longer read them. */
  toldDeleted: boolean;
  /** Is given a read row for each moved message (no earlier one is replaced). */
  gainsRows: boolean;
}

/**
 * A destination with protected history is read through rows alone, so its subscribers need one
 * for every moved message: being subscribed when a message arrives is what grants access there.
 */
export function subscribersGainRows(destination: Destination): boolean {
  return Boolean(destination.invite_only) && !destination.history_public_to_subscribers;
}

/** Whether someone may read moved messages in the destination, whatever they held before. */
export function readsAfterMove(destination: Destination, party: Pick<MoveParty, 'role' | 'onTarget'>): boolean {
  // Subscribers of a destination with protected history are given rows, so subscribing suffices.
  return party.onTarget || canAccessStreamHistory(party, destination, false);
}

export function moveOutcome(destination: Destination, party: MoveParty): MoveOutcome {
  const keepsAccess = readsAfterMove(destination, party);
  return {
    keepsAccess,
    // Subscribers of the origin who are not on the destination give their rows up even when public
    // history still lets them read, as the reference does; nobody who cannot read keeps one.
    dropsRows: !keepsAccess || (party.everOnOrigin && !party.onTarget),
    toldDeleted: !keepsAccess && (party.holdsRow || party.everOnOrigin),
    gainsRows: party.onTarget && subscribersGainRows(destination),
  };
}
