// Logic-less `{{name}}` substitution for prompts, scenarios and (later) workflows: a variable is a
// name, optionally with a default after a bar (`{{tone|friendly}}`). Nothing in a template is ever
// evaluated (ARCHITECTURE §11): no sections, no helpers, no expressions, no escapes to code. A
// value is inserted as it is, and `{{…}}` inside a value is not looked at again.

/** `{{ name }}` or `{{ name|default }}`; names may hold dots for `inputs.x` / `steps.y.output`. */
const variablePattern = /\{\{\s*([A-Za-z_][\w.-]{0,63})\s*(?:\|([^{}]{0,500}))?\}\}/g;

export type TemplateVariable = {
  name: string;
  /** The default written in the template; null when the variable must be filled in. */
  default: string | null;
};

/**
 * The variables of one or more texts, each name once, in order of first appearance. A name with
 * a default anywhere has that default (the first one written).
 */
export const templateVariables = (...texts: string[]): TemplateVariable[] => {
  const found = new Map<string, TemplateVariable>();
  for (const text of texts) {
    for (const match of text.matchAll(variablePattern)) {
      const name = match[1]!;
      const fallback = match[2] === undefined ? null : match[2].trim();
      const known = found.get(name);
      if (!known) found.set(name, { name, default: fallback });
      else if (known.default === null && fallback !== null) known.default = fallback;
    }
  }
  return [...found.values()];
};

/**
 * The value given for `name`: an own text property only, so names such as `constructor` or
 * `__proto__` never reach what every object inherits.
 */
const valueOf = (values: Readonly<Record<string, string | undefined>>, name: string) => {
  const value: unknown = Object.hasOwn(values, name) ? values[name] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
};

/** The names of the variables with neither a value nor a default. */
export const missingVariables = (
  texts: string[],
  values: Readonly<Record<string, string | undefined>>,
): string[] =>
  templateVariables(...texts)
    .filter((v) => v.default === null && valueOf(values, v.name) === undefined)
    .map((v) => v.name);

/**
 * The text with every variable replaced by its value, else its default. A variable with neither
 * is left as written; call `missingVariables` first to refuse such a fill.
 */
export const fillTemplate = (
  text: string,
  values: Readonly<Record<string, string | undefined>>,
): string =>
  text.replace(variablePattern, (whole, name: string, fallback: string | undefined) => {
    const value = valueOf(values, name);
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback.trim();
    return whole;
  });
