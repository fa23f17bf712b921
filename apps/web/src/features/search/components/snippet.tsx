import { messageSearch } from '@chorus/shared/message-search';

export type SnippetPart = { text: string; marked: boolean };

/**
 * A hit's snippet as text parts, the matched words marked. The server puts the matches between
 * two control characters that never occur in the text, so no HTML is ever parsed; a stray or
 * unpaired marker is dropped.
 */
export const snippetParts = (snippet: string): SnippetPart[] => {
  const parts: SnippetPart[] = [];
  let marked = false;
  let text = '';
  const flush = () => {
    if (text) parts.push({ text, marked });
    text = '';
  };
  for (const char of snippet) {
    if (char === messageSearch.markStart || char === messageSearch.markEnd) {
      flush();
      marked = char === messageSearch.markStart;
    } else {
      text += char;
    }
  }
  flush();
  return parts;
};

export const Snippet = ({ text }: { text: string }) => (
  <>
    {snippetParts(text).map((part, index) =>
      part.marked ? (
        <mark
          key={index}
          className="rounded-sm bg-yellow-200 px-0.5 text-foreground dark:bg-yellow-400/30"
        >
          {part.text}
        </mark>
      ) : (
        <span key={index}>{part.text}</span>
      ),
    )}
  </>
);
