// A message's edit history (GET /messages/{id}/history) in a dialog: each version, oldest first,
// with who changed it and when, its topic or stream moves, and its content with changes marked.
import { useEffect, useState } from 'preact/hooks';
import { ActButtons, ActDialog } from './act-dialog.js';
import type { Message, MessageVersion } from './api.js';
import type { Model } from './model.js';
import { api, streamName } from './store.js';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function verb(v: MessageVersion, first: boolean): string {
  if (first) return 'Posted by';
  return v.content_html_diff !== undefined ? 'Edited by' : 'Moved by';
}

function Version({ v, first, m }: { v: MessageVersion; first: boolean; m: Model }) {
  const who = v.user_id === null ? 'someone' : (m.people.get(v.user_id)?.full_name ?? 'a former user');
  return (
    <li class="version">
      <p class="version-head">
        <strong>
          {verb(v, first)} {who}
        </strong>{' '}
        <time dateTime={new Date(v.timestamp * 1000).toISOString()}>{when.format(new Date(v.timestamp * 1000))}</time>
      </p>
      {v.prev_stream !== undefined && (
        <p class="version-move">
          Stream: #{streamName(v.prev_stream)} → #{streamName(v.stream ?? v.prev_stream)}
        </p>
      )}
      {v.prev_topic !== undefined && (
        <p class="version-move">
          Topic: {v.prev_topic} → {v.topic}
        </p>
      )}
      {(first || v.content_html_diff !== undefined) && (
        // Rendered and sanitized by the server, as message content is.
        <div class="content" dangerouslySetInnerHTML={{ __html: v.content_html_diff ?? v.rendered_content ?? '' }} />
      )}
    </li>
  );
}

export function EditHistory({ msg, m, onClose }: { msg: Message; m: Model; onClose: () => void }) {
  const [versions, setVersions] = useState<MessageVersion[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api.messageHistory(msg.id).then((r) => setVersions(r.message_history), (e: Error) => setError(e.message));
  }, [msg.id, msg.last_edit_timestamp]);
  return (
    <ActDialog title="Message edit history" onClose={onClose} wide>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {!versions && !error && <p>Loading…</p>}
      {versions && (
        <ol class="versions">
          {versions.map((v, i) => (
            <Version key={i} v={v} first={i === 0} m={m} />
          ))}
        </ol>
      )}
      <ActButtons leave="Close" onLeave={onClose} />
    </ActDialog>
  );
}
