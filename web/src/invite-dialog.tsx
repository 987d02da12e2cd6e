// "Invite people": choose the newcomers' role, how long the link lasts and the streams they join
// (the default streams ticked to start with), then create a reusable invitation link and copy it.
// Loaded the first time the top bar's button is pressed.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ActButtons, ActDialog } from './act-dialog.js';
import type { StreamInfo } from './api.js';
import { DEFAULT_EXPIRY, EXPIRY_CHOICES, type InviteChoice, inviteParams, inviteRoleChoices, linkSummary, Role } from './invite-rules.js';
import type { Model } from './model.js';
import { api } from './store.js';
import './invite.css';

export interface InviteDialogProps {
  m: Model;
  onClose: () => void;
}

function StreamChoices({ streams, chosen, toggle }: { streams: StreamInfo[] | null; chosen: Set<number>; toggle: (id: number) => void }) {
  return (
    <fieldset class="invite-streams">
      <legend>Streams to join</legend>
      {streams === null ? (
        <p class="invite-hint">Loading streams…</p>
      ) : (
        <ul>
          {streams.map((s) => (
            <li key={s.stream_id}>
              <label class="check">
                <input type="checkbox" checked={chosen.has(s.stream_id)} onChange={() => toggle(s.stream_id)} />
                # {s.name}
                {s.invite_only && <span class="invite-private">(private)</span>}
              </label>
            </li>
          ))}
        </ul>
      )}
      <p class="invite-hint">With none ticked, newcomers join the organization’s default streams.</p>
    </fieldset>
  );
}

function CreatedLink({ link, summary, onClose }: { link: string; summary: string; onClose: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState('');
  useEffect(() => input.current?.select(), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('Copied.');
    } catch {
      // Without clipboard access the link stays selected, ready for the keyboard's copy.
      input.current?.select();
      setCopied('Press Ctrl+C to copy the selected link.');
    }
  }
  return (
    <div class="act-form">
      <label>
        Invitation link
        <input ref={input} class="invite-link" value={link} readOnly onFocus={(e) => e.currentTarget.select()} />
      </label>
      <p class="invite-hint">{summary}</p>
      <p role="status" class="invite-hint">
        {copied}
      </p>
      <ActButtons leave="Close" onLeave={onClose}>
        <button type="button" class="primary" onClick={() => void copy()}>
          Copy
        </button>
      </ActButtons>
    </div>
  );
}

export function InviteDialog({ m, onClose }: InviteDialogProps) {
  const roles = inviteRoleChoices(m.myRole);
  const [role, setRole] = useState<number>(Role.MEMBER);
  const [expiry, setExpiry] = useState(DEFAULT_EXPIRY);
  const [streams, setStreams] = useState<StreamInfo[] | null>(null);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<{ link: string; choice: InviteChoice } | null>(null);

  useEffect(() => {
    api.getStreams().then(
      (list) => {
        setStreams([...list].sort((a, b) => a.name.localeCompare(b.name)));
        setChosen(new Set(list.filter((s) => s.is_default).map((s) => s.stream_id)));
      },
      (e: Error) => {
        setStreams([]);
        setError(e.message);
      },
    );
  }, []);

  const toggle = (id: number) =>
    setChosen((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  async function create() {
    const choice: InviteChoice = { role, expiry: EXPIRY_CHOICES[expiry]!, streamIds: [...chosen] };
    setSaving(true);
    setError('');
    try {
      setCreated({ link: await api.createInviteLink(inviteParams(choice)), choice });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <ActDialog title="Invite people" onClose={onClose}>
      {created ? (
        <CreatedLink link={created.link} summary={linkSummary(created.choice, roles)} onClose={onClose} />
      ) : (
        <form
          class="act-form"
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <label>
            Invite as
            <select value={String(role)} onChange={(e) => setRole(Number(e.currentTarget.value))}>
              {roles.map((r) => (
                <option key={r.role} value={String(r.role)}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Link expires after
            <select value={String(expiry)} onChange={(e) => setExpiry(Number(e.currentTarget.value))}>
              {EXPIRY_CHOICES.map((c, i) => (
                <option key={c.label} value={String(i)}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <StreamChoices streams={streams} chosen={chosen} toggle={toggle} />
          <ActButtons error={error} leave="Cancel" onLeave={onClose}>
            <button type="submit" class="primary" disabled={saving || streams === null}>
              Create link
            </button>
          </ActButtons>
        </form>
      )}
    </ActDialog>
  );
}
