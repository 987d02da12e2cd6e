// The notification bot's texts after messages move or a topic is resolved: pure, in the
// reference's wording, with the reference's link and mention syntax.

type Person = { id: number; full_name: string };
type Place = { streamId: number; streamName: string; topic: string };

/** A mention that names the user without notifying them. */
export function silentMention(user: Person): string {
  return `@_**${user.full_name}|${user.id}**`;
}

/** Percent-encoding of every character but letters, digits and "-_.~", then "." for "%" (and "%2E" for "."). */
export function encodeHashComponent(text: string): string {
  const quoted = encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return quoted.replace(/\./g, '%2E').replace(/%/g, '.');
}

function encodeChannel(streamId: number, streamName: string): string {
  return `${streamId}-${encodeHashComponent(streamName.replace(/ /g, '-'))}`;
}

/** Characters that would break the #**stream>topic** syntax. */
const BREAKS_LINK_SYNTAX = /[`>*&]|\$\$/;

const LINK_TEXT_ESCAPES: Array<[RegExp, string]> = [
  [/&/g, '&amp;'],
  [/`/g, '&#96;'],
  [/>/g, '&gt;'],
  [/\*/g, '&#42;'],
  [/\$\$/g, '&#36;&#36;'],
];

function escapeLinkText(text: string): string {
  return LINK_TEXT_ESCAPES.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** `#**stream>topic**`, or a plain Markdown link when the names would break that syntax. */
export function topicLinkSyntax(place: Place): string {
  if (!BREAKS_LINK_SYNTAX.test(place.streamName) && !BREAKS_LINK_SYNTAX.test(place.topic)) {
    return `#**${place.streamName}>${place.topic}**`;
  }
  const url = `#narrow/channel/${encodeChannel(place.streamId, place.streamName)}/topic/${encodeHashComponent(place.topic)}`;
  return `[#${escapeLinkText(place.streamName)} > ${escapeLinkText(place.topic)}](${url})`;
}

/** The permanent link to a message in its (new) stream and topic. */
export function messageLink(realmUrl: string, place: Place, messageId: number): string {
  const parts = [realmUrl, '#narrow', 'channel', encodeChannel(place.streamId, place.streamName)];
  return [...parts, 'topic', encodeHashComponent(place.topic), 'near', String(messageId)].join('/');
}

export interface MoveSummary {
  mover: Person;
  from: Place;
  to: Place;
  /** How many messages moved. */
  count: number;
  /** The whole topic, as far as the mover can see it, moved. */
  wholeTopic: boolean;
  /** The destination had no messages the mover could see before. */
  newTopic: boolean;
  /** The edited message, for the single-message link. */
  messageId: number;
  realmUrl: string;
}

/** The notice left in the old thread. */
export function oldThreadNotice(move: MoveSummary): string {
  const where = topicLinkSyntax(move.to);
  const who = silentMention(move.mover);
  if (move.wholeTopic) return `This topic was moved to ${where} by ${who}.`;
  if (move.count === 1) return `A message was moved from this topic to ${where} by ${who}.`;
  return `${move.count} messages were moved from this topic to ${where} by ${who}.`;
}

/** The notice posted in the new thread. */
export function newThreadNotice(move: MoveSummary): string {
  const where = topicLinkSyntax(move.from);
  const who = silentMention(move.mover);
  if (move.wholeTopic && move.newTopic) return `This topic was moved here from ${where} by ${who}.`;
  if (move.count === 1) return `[A message](${messageLink(move.realmUrl, move.to, move.messageId)}) was moved here from ${where} by ${who}.`;
  return `${move.count} messages were moved here from ${where} by ${who}.`;
}

/** The notice after marking a topic resolved or unresolved. */
export function resolveNotice(kind: 'resolved' | 'unresolved', mover: Person): string {
  return `${silentMention(mover)} has marked this topic as ${kind}.`;
}
