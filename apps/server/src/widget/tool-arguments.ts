import { asSchema, jsonSchema, type JSONSchema7, type Tool } from 'ai';
import { messageFor } from '@chorus/shared/error-catalogue';
import { toolNeedsArgumentRule } from '@chorus/shared/api/widgets';
import { HttpToolsRepository } from '../db/repositories/http-tools.ts';
import { McpRepository } from '../db/repositories/mcp.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { isUuid } from '../http/uuid.ts';
import { urlPlaceholders } from '../tools/http-tool.ts';

/**
 * Widgets and tools that carry the owner's credentials (docs/SECURITY.md, "Widgets"). An HTTP
 * tool sends its secret headers and an MCP tool its server's token with whatever arguments it is
 * given; in a widget, the model fills them from what a visitor writes. So a widget offers such a
 * tool only with the owner's rule: the arguments a visitor may set, and fixed values for others.
 * The model is shown only the visitor's arguments, and the call is made with exactly those plus
 * the fixed ones.
 */

/** One tool's rule (`WidgetToolArgumentRule`), as stored. */
export type ArgumentRule = { visitor: string[]; fixed: Record<string, unknown> };
type ArgumentRules = Record<string, ArgumentRule>;

type ArgumentProblem = 'missing' | 'unknown' | 'both' | 'required';

const refuse = (tool: string, problem: ArgumentProblem, argument?: string) =>
  new ApiError(
    400,
    'widgets:tool_arguments',
    messageFor('widgets:tool_arguments', { tool, problem, ...(argument && { argument }) }),
  );

type JsonObjectSchema = { properties?: unknown; required?: unknown; [key: string]: unknown };

const propertiesOf = (schema: JsonObjectSchema): Record<string, unknown> =>
  typeof schema.properties === 'object' &&
  schema.properties !== null &&
  !Array.isArray(schema.properties)
    ? (schema.properties as Record<string, unknown>)
    : {};

const requiredOf = (schema: JsonObjectSchema): string[] =>
  Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === 'string')
    : [];

/** A tool as its rule is checked against: its name, its input schema, what it cannot go without. */
type ToolShape = { name: string; schema: JsonObjectSchema; needs: string[] };

/** The owner's HTTP and MCP tools among `keys`, by key. */
const shapesOf = async (
  deps: Deps,
  userId: string,
  keys: readonly string[],
): Promise<Map<string, ToolShape>> => {
  const idsOf = (kind: string) =>
    keys
      .filter((k) => k.startsWith(`${kind}:`))
      .map((k) => k.slice(kind.length + 1))
      .filter(isUuid);
  const [http, mcp] = await Promise.all([
    new HttpToolsRepository(deps.database.db, userId, deps.box).getMany(idsOf('http')),
    new McpRepository(deps.database.db, userId, deps.box).toolsWithServers(idsOf('mcp')),
  ]);
  const shapes = new Map<string, ToolShape>();
  for (const row of http) {
    const schema = row.input_schema as JsonObjectSchema;
    shapes.set(`http:${row.id}`, {
      name: row.name,
      schema,
      needs: [...new Set([...urlPlaceholders(row.url_template), ...requiredOf(schema)])],
    });
  }
  for (const { tool } of mcp) {
    const schema = tool.input_schema as JsonObjectSchema;
    shapes.set(`mcp:${tool.id}`, { name: tool.name, schema, needs: requiredOf(schema) });
  }
  return shapes;
};

/**
 * The rules to store for a widget's allowed tools: one for each HTTP or MCP tool, naming only
 * arguments of its input schema, each argument set by visitors or fixed (not both), and whatever
 * the tool cannot go without (a URL placeholder, a required property) covered. Rules of tools
 * the widget does not allow are dropped. Throws the 400 that says what to fix.
 */
export const checkToolArguments = async (
  deps: Deps,
  userId: string,
  allowedTools: readonly string[],
  given: ArgumentRules,
): Promise<ArgumentRules> => {
  const keys = allowedTools.filter(toolNeedsArgumentRule);
  if (keys.length === 0) return {};
  const shapes = await shapesOf(deps, userId, keys);
  const rules: ArgumentRules = {};
  for (const key of keys) {
    const shape = shapes.get(key);
    // A tool deleted meanwhile is not offered anyway; checkTools refuses unknown keys.
    if (!shape) continue;
    const rule = Object.hasOwn(given, key) ? given[key] : undefined;
    if (!rule) throw refuse(shape.name, 'missing');
    const properties = propertiesOf(shape.schema);
    const visitor = [...new Set(rule.visitor)];
    for (const name of [...visitor, ...Object.keys(rule.fixed)]) {
      if (!Object.hasOwn(properties, name)) throw refuse(shape.name, 'unknown', name);
    }
    const both = visitor.find((name) => Object.hasOwn(rule.fixed, name));
    if (both) throw refuse(shape.name, 'both', both);
    const uncovered = shape.needs.find(
      (name) => !visitor.includes(name) && !Object.hasOwn(rule.fixed, name),
    );
    if (uncovered) throw refuse(shape.name, 'required', uncovered);
    rules[key] = { visitor, fixed: rule.fixed };
  }
  return rules;
};

/**
 * The tool as a visitor's reply may call it: the model sees only the arguments visitors may set,
 * and the call gets exactly those (anything else the model sends is dropped) plus the owner's
 * fixed values, which win.
 */
export const restrictForVisitors = (tool: Tool, rule: ArgumentRule): Tool => {
  const execute = tool.execute;
  if (!execute || !tool.inputSchema) return tool;
  const full = asSchema(tool.inputSchema).jsonSchema as JsonObjectSchema;
  const properties = propertiesOf(full);
  const visitor = rule.visitor.filter((name) => Object.hasOwn(properties, name));
  const restricted: JSONSchema7 = {
    ...(full as JSONSchema7),
    type: 'object',
    properties: Object.fromEntries(visitor.map((name) => [name, properties[name] as JSONSchema7])),
    required: requiredOf(full).filter((name) => visitor.includes(name)),
    additionalProperties: false,
  };
  return {
    ...tool,
    inputSchema: jsonSchema(restricted),
    execute: (input: unknown, options: Parameters<NonNullable<Tool['execute']>>[1]) => {
      const given =
        input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
      const chosen = Object.fromEntries(
        visitor.filter((name) => Object.hasOwn(given, name)).map((name) => [name, given[name]]),
      );
      return execute({ ...chosen, ...rule.fixed }, options);
    },
  } as Tool;
};
