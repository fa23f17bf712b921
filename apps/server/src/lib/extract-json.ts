/** The end of the JSON value that opens at `text[start]`, or -1 when it never closes. */
const jsonEnd = (text: string, start: number): number => {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return -1;
};

/** The first JSON object or array in a text (a model's reply in a code fence, say). */
export const extractJson = (text: string): { found: true; value: unknown } | { found: false } => {
  let tries = 0;
  for (let i = 0; i < text.length && tries < 200; i++) {
    if (text[i] !== '{' && text[i] !== '[') continue;
    tries++;
    const end = jsonEnd(text, i);
    if (end < 0) continue;
    try {
      return { found: true, value: JSON.parse(text.slice(i, end)) as unknown };
    } catch {
      // not JSON from here: try the next bracket
    }
  }
  return { found: false };
};
