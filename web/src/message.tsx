// One message (sender, time, rendered content) and the recipient bar above a run of messages.
import { useEffect, useRef } from 'preact/hooks';
import type { Message } from './api.js';
import { EchoStatus } from './compose-parts.js';
import { mentionsMe, prepareContent } from './content.js';
import { showEmoji } from './emoji.js';
import { topicKey } from './model.js';
import { narrowToHash } from './narrow.js';
import { loadKatexStyle } from './katex-style.js';
import { model, selectedId, streamName } from './store.js';
import { ActHeader, ActBody } from './message-act.js';

export function recipientKey(msg: Message): string {
  return msg.type === 'stream' ? topicKey(msg.stream_id!, msg.subject) : `dm:${dmPeople(msg)}`;
}

function dmPeople(msg: Message): string {
  return Array.isArray(msg.display_recipient) ? msg.display_recipient.map((p) => p.full_name).join(', ') : '';
}

export function RecipientBar({ msg }: { msg: Message }) {
  if (msg.type !== 'stream') {
    return (
      <h2 class="recipient dm">
        <a href={narrowToHash({ kind: 'dm' }, streamName)}>Direct messages with {dmPeople(msg)}</a>
      </h2>
    );
  }
  const streamId = msg.stream_id!;
  return (
    <h2 class="recipient">
      <a href={narrowToHash({ kind: 'stream', streamId }, streamName)}># {streamName(streamId)}</a>
      <span aria-hidden="true"> › </span>
      <a href={narrowToHash({ kind: 'stream', streamId, topic: msg.subject }, streamName)}>{msg.subject}</a>
    </h2>
  );
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

export function MessageView({ msg, unread, selected = false }: { msg: Message; unread: boolean; selected?: boolean }) {
  const time = new Date(msg.timestamp * 1000);
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (content.current) showEmoji(content.current);
    if (content.current && model.value) prepareContent(content.current, model.value.me.user_id);
    // Math is drawn with KaTeX's stylesheet and fonts, fetched the first time a message needs them.
    if (msg.content.includes('katex') && content.current?.querySelector('.katex')) loadKatexStyle();
  }, [msg.content]);
  const classes = `message${unread ? ' unread' : ''}${selected ? ' selected' : ''}`;
  return (
    <article
      aria-label={`${msg.sender_full_name}, ${timeFormat.format(time)}`}
      class={`${classes}${mentionsMe(msg.flags) ? ' mentioned' : ''}${msg.local ? ` local ${msg.local.state}` : ''}`}
      data-id={msg.id}
      aria-current={selected ? 'true' : undefined}
      onClick={(e) => {
        // A click on the message (not on a link or control in it) selects it, as the keyboard does.
        if (!(e.target as Element).closest('a, button, input, textarea, select')) selectedId.value = msg.id;
      }}
    >
      <header>
        <SenderAvatar msg={msg} />
        <strong class="sender">{msg.sender_full_name}</strong>
        <time dateTime={time.toISOString()}>{timeFormat.format(time)}</time>
        {msg.local && <EchoStatus msg={msg} />}
        <ActHeader msg={msg} />
      </header>
      {/* The server renders and sanitizes message content; it is meant to be shown as HTML. */}
      <ActBody msg={msg}>
        <div class="content" ref={content} dangerouslySetInnerHTML={{ __html: msg.content }} />
      </ActBody>
    </article>
  );
}


/** The sender's picture beside the name: the current one from the people list (it follows changes), else the message's. */
function SenderAvatar({ msg }: { msg: Message }) {
  const url = model.value?.people.get(msg.sender_id)?.avatar_url ?? msg.avatar_url;
  if (!url) return null;
  return <img class="sender-avatar" src={url} alt="" width={24} height={24} loading="lazy" />;
}
