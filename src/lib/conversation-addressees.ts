// How the API names the addressees of a stored conversation from the viewer's side: the stream's
// id, or the other people of a direct conversation (yourself, for a conversation with yourself).
import { RecipientType } from '../types/rows.js';

export interface StoredRecipient {
  recipient_type: number | null;
  recipient_type_id: number | null;
  /** The member ids of a direct-message group, comma-separated. */
  huddle_hash: string | null;
}

export type ConversationAddressees = { type: 'stream'; to: number[] } | { type: 'private'; to: number[] } | { type: ''; to: [] };

export function conversationAddressees(row: StoredRecipient, viewerId: number): ConversationAddressees {
  switch (row.recipient_type) {
    case RecipientType.STREAM:
      return { type: 'stream', to: [row.recipient_type_id!] };
    case RecipientType.PERSONAL:
      return { type: 'private', to: [row.recipient_type_id!] };
    case RecipientType.DIRECT_MESSAGE_GROUP: {
      const members = (row.huddle_hash ?? '').split(',').filter(Boolean).map(Number);
      return { type: 'private', to: members.filter((id) => id !== viewerId) };
    }
    default:
      return { type: '', to: [] };
  }
}
