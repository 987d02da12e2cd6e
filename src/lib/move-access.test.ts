import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type MoveParty, moveOutcome } from './move-access.js';
import { Role } from './roles.js';

const PUBLIC = { invite_only: 0, history_public_to_subscribers: 1, is_web_public: 0 };
const WEB_PUBLIC = { invite_only: 0, history_public_to_subscribers: 1, is_web_public: 1 };
const SHARED = { invite_only: 1, history_public_to_subscribers: 1, is_web_public: 0 };
const PROTECTED = { invite_only: 1, history_public_to_subscribers: 0, is_web_public: 0 };

type Flags = 'onTarget' | 'everOnOrigin' | 'holdsRow';
const party = (role: number, ...flags: Flags[]): MoveParty => ({
  role,
  onTarget: flags.includes('onTarget'),
  everOnOrigin: flags.includes('everOnOrigin'),
  holdsRow: flags.includes('holdsRow'),
});

/** Outcome letters: A keeps access, X drops rows, D told deleted, G gains rows; '-' for none. */
function code(destination: typeof PUBLIC, p: MoveParty): string {
  const o = moveOutcome(destination, p);
  return `${o.keepsAccess ? 'A' : ''}${o.dropsRows ? 'X' : ''}${o.toldDeleted ? 'D' : ''}${o.gainsRows ? 'G' : ''}` || '-';
}

describe('moveOutcome', () => {
  const M = Role.MEMBER;
  const G = Role.GUEST;
  const cases: Array<[string, MoveParty, [pub: string, web: string, shared: string, prot: string]]> = [
    ['old subscriber with a row', party(M, 'everOnOrigin', 'holdsRow'), ['AX', 'AX', 'XD', 'XD']],
    ['old subscriber without a row', party(M, 'everOnOrigin'), ['AX', 'AX', 'XD', 'XD']],
    ['subscriber of both', party(M, 'everOnOrigin', 'onTarget', 'holdsRow'), ['A', 'A', 'A', 'AG']],
    ['new subscriber', party(M, 'onTarget'), ['A', 'A', 'A', 'AG']],
    ['historical row, on neither', party(M, 'holdsRow'), ['A', 'A', 'XD', 'XD']],
    ['administrator with a historical row', party(Role.ADMINISTRATOR, 'holdsRow'), ['A', 'A', 'XD', 'XD']],
    ['on neither, no row', party(M), ['A', 'A', 'X', 'X']],
    ['guest from the old stream', party(G, 'everOnOrigin', 'holdsRow'), ['XD', 'AX', 'XD', 'XD']],
    ['guest on the new stream', party(G, 'onTarget'), ['A', 'A', 'A', 'AG']],
    ['guest on both', party(G, 'everOnOrigin', 'onTarget', 'holdsRow'), ['A', 'A', 'A', 'AG']],
    ['guest on neither, no row', party(G), ['X', 'A', 'X', 'X']],
  ];
  for (const [name, p, expected] of cases) {
    it(name, () => {
      assert.deepEqual([PUBLIC, WEB_PUBLIC, SHARED, PROTECTED].map((d) => code(d, p)), expected);
    });
  }
});
