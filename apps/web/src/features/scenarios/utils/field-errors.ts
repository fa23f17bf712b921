/** One problem the server found, by the field it is about ('' when it names none). */
export type FieldErrors = Record<string, string>;

const fieldSentence = /Field ([\w.-]+): /g;

/**
 * The server's validation message split by field. A 400 `bad_request:validation` message is one
 * sentence per problem, each led by `Field <path>: ` (apps/server/src/http/errors.ts); what names
 * no field is kept under ''.
 */
export const parseFieldErrors = (message: string): FieldErrors => {
  const starts = [...message.matchAll(fieldSentence)];
  const errors: FieldErrors = {};
  const add = (path: string, text: string) => {
    const sentence = text.trim();
    if (!sentence) return;
    errors[path] = errors[path] ? `${errors[path]} ${sentence}` : sentence;
  };
  add('', message.slice(0, starts[0]?.index ?? message.length));
  starts.forEach((match, i) => {
    const end = starts[i + 1]?.index ?? message.length;
    add(match[1]!, message.slice((match.index ?? 0) + match[0].length, end));
  });
  return errors;
};

/** The errors under a field or below it (`targets` takes `targets.2.model` too). */
export const errorFor = (errors: FieldErrors, path: string): string | undefined => {
  const found = Object.entries(errors)
    .filter(([key]) => key === path || key.startsWith(`${path}.`))
    .map(([, text]) => text);
  return found.length ? found.join(' ') : undefined;
};
