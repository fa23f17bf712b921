/**
 * The objects of a newline-delimited JSON body, one per line, as they arrive. A line may be split
 * across chunks (and a character across bytes): only whole lines are parsed. Blank lines are
 * skipped; a last line without its newline still counts.
 */
export async function* readNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = done ? '' : (lines.pop() ?? '');
      for (const line of lines) {
        const text = line.trim();
        if (text) yield parseLine(text);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

const parseLine = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('The server sent a line that is not JSON; the run cannot be read.');
  }
};
