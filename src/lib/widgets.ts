// Widgets (interactive messages): a message whose content starts with /poll or /todo gets a
// "widget" submessage describing the widget, which readers' later submessages act on.

export type WidgetType = 'poll' | 'todo';

export interface WidgetDefinition {
  widget_type: WidgetType;
  extra_data: { question: string; options: string[] } | null;
}

const WIDGET_TYPES: readonly string[] = ['poll', 'todo'];

/** Line breaks as Python's str.splitlines knows them, which the reference splits widget text with. */
const LINE_BREAK = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/;

function splitLines(text: string): string[] {
  const lines = text.split(LINE_BREAK);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A poll's question (the rest of the command line) and its options (the lines below, list markers dropped). */
function pollData(rest: string): { question: string; options: string[] } {
  const lines = splitLines(rest);
  let question = '';
  if (lines.length > 0 && lines[0]) question = lines.shift()!.trim();
  const options = lines.map((line) => line.replace(/^\s*[-*]?\s*/, '')).filter((option) => option.length > 0);
  return { question, options };
}

/** The widget a message's content asks for, if its first word is a widget command. */
export function widgetFromContent(content: string): WidgetDefinition | null {
  const command = content.split(/\s+/)[0]!;
  if (!command.startsWith('/') || !WIDGET_TYPES.includes(command.slice(1))) return null;
  const type = command.slice(1) as WidgetType;
  // Only polls read their text; a todo list starts empty.
  return { widget_type: type, extra_data: type === 'poll' ? pollData(content.slice(command.length)) : null };
}

/**
 * JSON as the reference's json.dumps writes it (", " and ": " separators, non-ASCII as \u escapes),
 * so that stored widget definitions read byte for byte the same to clients.
 */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  return JSON.stringify(value);
}
