import { describe, expect, it } from 'vitest';
import { createSseParser, parseStreamEvent } from './sse';

const parse = (chunks: string[], { end = true } = {}) => {
  const events: string[] = [];
  const parser = createSseParser((data) => events.push(data));
  for (const chunk of chunks) parser.push(chunk);
  if (end) parser.end();
  return events;
};

const stream =
  ': keep-alive\n\n' +
  'event: message\nid: 1\ndata: {"type":"start","conversation_id":"c","message_id":"m"}\n\n' +
  'data: {"type":"delta",\ndata: "text":"Hi"}\r\n\r\n' +
  'data:{"type":"done"}\r\r';

describe('createSseParser', () => {
  it('reads data, joins multi-line data, and ignores comments and other fields', () => {
    expect(parse([stream])).toEqual([
      '{"type":"start","conversation_id":"c","message_id":"m"}',
      '{"type":"delta",\n"text":"Hi"}',
      '{"type":"done"}',
    ]);
  });

  it('gives the same events however the body is cut into chunks', () => {
    const whole = parse([stream]);
    expect(parse(stream.split(''))).toEqual(whole);
    for (let at = 1; at < stream.length; at++) {
      expect(parse([stream.slice(0, at), stream.slice(at)])).toEqual(whole);
    }
  });

  it('waits for the blank line before an event is whole', () => {
    expect(parse(['data: {"type":"done"}\n'], { end: false })).toEqual([]);
    expect(parse(['data: {"type":"done"}\n'])).toEqual(['{"type":"done"}']);
    expect(parse(['data: {"type":"done"}'])).toEqual(['{"type":"done"}']);
  });
});

describe('parseStreamEvent', () => {
  it('reads the widget stream events', () => {
    expect(parseStreamEvent('{"type":"delta","text":"a"}')).toEqual({ type: 'delta', text: 'a' });
    expect(parseStreamEvent('{"type":"error","code":"x","message":"No"}')).toEqual({
      type: 'error',
      code: 'x',
      message: 'No',
    });
  });

  it('skips what is not one', () => {
    expect(parseStreamEvent('not json')).toBeNull();
    expect(parseStreamEvent('"delta"')).toBeNull();
    expect(parseStreamEvent('{"type":"delta"}')).toBeNull();
    expect(parseStreamEvent('{"type":"sources","sources":"x"}')).toBeNull();
    expect(parseStreamEvent('{"type":"other"}')).toBeNull();
  });
});
