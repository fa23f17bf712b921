/** JSON text typed by the user, read as an object: a tool's input or an input schema. */
export const parseJsonObject = (
  text: string,
  what: string,
): { value: Record<string, unknown>; error: null } | { value: null; error: string } => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const detail = cause instanceof Error ? ` (${cause.message})` : '';
    return {
      value: null,
      error: `${what} is not valid JSON${detail}. Check its quotes, commas and braces.`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { value: null, error: `${what} must be a JSON object, in braces: { … }` };
  }
  return { value: value as Record<string, unknown>, error: null };
};

export const prettyJson = (value: unknown) => JSON.stringify(value, null, 2);

const exampleOf = (schema: unknown): unknown => {
  const type = (schema as { type?: unknown } | null)?.type;
  if (type === 'string') return '';
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return null;
};

/** An input to start a try from: each property of the schema with an empty value of its type. */
export const exampleInputOf = (schema: Record<string, unknown>): string => {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return '{}';
  return prettyJson(
    Object.fromEntries(
      Object.entries(properties as Record<string, unknown>).map(([name, property]) => [
        name,
        exampleOf(property),
      ]),
    ),
  );
};
