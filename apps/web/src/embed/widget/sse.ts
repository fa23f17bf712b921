import type { WidgetStreamEvent } from '@chorus/shared/api/widgets';

/**
 * A server-sent events parser for the chat's reply: feed it the body's text as it arrives, in
 * chunks split anywhere; it calls `onData` with each event's data (its `data:` lines joined).
 * Other fields (`event`, `id`, `retry`) and comments are ignored.
 */
export const createSseParser = (onData: (data: string) => void) => {
  let buffer = '';
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) onData(data.join('\n'));
    data = [];
  };
  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
  };
  return {
    push(chunk: string) {
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        // A `\r` at the end may be the first half of `\r\n`: wait for the next chunk.
        if (c === '\r' && i === buffer.length - 1) break;
        line(buffer.slice(start, i));
        if (c === '\r' && buffer[i + 1] === '\n') i++;
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    /** The body ended: a last event without its blank line still counts. */
    end() {
      if (buffer !== '') line(buffer.replace(/\r$/, ''));
      buffer = '';
      dispatch();
    },
  };
};

const eventTypes = new Set(['start', 'delta', 'sources', 'done', 'error']);

/** One event's data as a WidgetStreamEvent; null for anything else (ignored, not fatal). */
export const parseStreamEvent = (data: string): WidgetStreamEvent | null => {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const event = value as Record<string, unknown>;
  if (typeof event.type !== 'string' || !eventTypes.has(event.type)) return null;
  if (event.type === 'delta' && typeof event.text !== 'string') return null;
  if (event.type === 'sources' && !Array.isArray(event.sources)) return null;
  if (event.type === 'error' && typeof event.message !== 'string') return null;
  return value as WidgetStreamEvent;
};
