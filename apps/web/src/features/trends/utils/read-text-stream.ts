/**
 * The text of a streamed body, piece by piece as it arrives. A character split across chunks is
 * held back until its last byte comes, so no piece ends in half a character.
 */
export async function* readTextStream(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (text) yield text;
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
