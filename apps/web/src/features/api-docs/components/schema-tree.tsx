import type { JsonSchema } from '../api/get-openapi';

type SchemaTreeProps = {
  schema: JsonSchema;
  schemas: Record<string, JsonSchema>;
  depth?: number;
  seen?: readonly string[];
};

const maxDepth = 8;

const refName = (ref: string) => ref.split('/').pop() ?? ref;

const typeLabel = (schema: JsonSchema, schemas: Record<string, JsonSchema>): string => {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const base = types
    .map((type) =>
      type === 'array' && schema.items ? `${typeLabel(schema.items, schemas)}[]` : type,
    )
    .join(' | ');
  const withFormat = schema.format ? `${base || 'string'} (${schema.format})` : base;
  const label =
    withFormat ||
    (schema.oneOf
      ? 'one of'
      : schema.anyOf
        ? 'any of'
        : schema.allOf
          ? 'all of'
          : schema.properties
            ? 'object'
            : 'any');
  return schema.nullable ? `${label} | null` : label;
};

const constraints = (schema: JsonSchema): string[] => {
  const notes: string[] = [];
  if (schema.minLength !== undefined) notes.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) notes.push(`max length ${schema.maxLength}`);
  if (schema.minimum !== undefined) notes.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) notes.push(`≤ ${schema.maximum}`);
  if (schema.pattern) notes.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
};

/** Renders a JSON schema as a compact, readable tree; $refs are expanded once per branch. */
export const SchemaTree = ({ schema, schemas, depth = 0, seen = [] }: SchemaTreeProps) => {
  if (depth > maxDepth) return <span className="text-muted-foreground">…</span>;

  if (schema.$ref) {
    const name = refName(schema.$ref);
    const target = schemas[name];
    if (!target || seen.includes(name)) {
      return <code className="text-primary">{name}</code>;
    }
    return (
      <SchemaTree schema={target} schemas={schemas} depth={depth + 1} seen={[...seen, name]} />
    );
  }

  const variants = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (variants) {
    const kind = schema.oneOf ? 'One of' : schema.anyOf ? 'Any of' : 'All of';
    return (
      <div>
        <span className="text-xs text-muted-foreground">{kind}:</span>
        <ol className="mt-1 grid gap-2 border-l pl-3">
          {variants.map((variant, index) => (
            <li key={index}>
              <SchemaTree schema={variant} schemas={schemas} depth={depth + 1} seen={seen} />
            </li>
          ))}
        </ol>
      </div>
    );
  }

  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    return (
      <ul className="grid gap-1.5">
        {Object.entries(schema.properties).map(([name, property]) => (
          <li key={name} className="font-mono text-xs">
            <span className="font-semibold">{name}</span>
            {required.has(name) ? (
              <span className="text-destructive" title="required">
                *
              </span>
            ) : null}
            <span className="text-muted-foreground">: {typeLabel(property, schemas)}</span>
            {constraints(property).length > 0 ? (
              <span className="text-muted-foreground"> — {constraints(property).join(', ')}</span>
            ) : null}
            {property.description ? (
              <p className="font-sans text-muted-foreground">{property.description}</p>
            ) : null}
            {needsExpansion(property) ? (
              <div className="mt-1 border-l pl-3">
                <SchemaTree
                  schema={expandable(property)}
                  schemas={schemas}
                  depth={depth + 1}
                  seen={seen}
                />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    );
  }

  if (schema.items && needsExpansion(schema.items)) {
    return (
      <div>
        <span className="font-mono text-xs text-muted-foreground">array of:</span>
        <div className="mt-1 border-l pl-3">
          <SchemaTree schema={schema.items} schemas={schemas} depth={depth + 1} seen={seen} />
        </div>
      </div>
    );
  }

  return (
    <code className="font-mono text-xs text-muted-foreground">{typeLabel(schema, schemas)}</code>
  );
};

const expandable = (schema: JsonSchema): JsonSchema =>
  schema.items && !schema.properties ? schema.items : schema;

const needsExpansion = (schema: JsonSchema): boolean => {
  const inner = expandable(schema);
  return Boolean(inner.properties || inner.oneOf || inner.anyOf || inner.allOf || inner.$ref);
};
