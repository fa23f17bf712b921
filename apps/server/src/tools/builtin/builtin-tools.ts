import type { ToolSet } from 'ai';
import { calculatorTool } from './calculator.ts';
import { currentDatetimeTool } from './current-datetime.ts';
import { webFetchTool, type OutboundContext } from './web-fetch.ts';

export type BuiltinToolsContext = {
  /** How web fetch reaches the network: the admin's allow-list of private hosts (none yet). */
  outbound?: OutboundContext;
};

/** The names a model calls the built-in tools by, and an agent's settings store. */
export const builtinToolNames = ['calculator', 'current_datetime', 'web_fetch'] as const;

export type BuiltinToolName = (typeof builtinToolNames)[number];

/**
 * The built-in tools, ready for a model call (knowledge search joins them once the agent
 * runtime hands over the server's dependencies).
 */
export const builtinTools = (context: BuiltinToolsContext = {}) =>
  ({
    calculator: calculatorTool,
    current_datetime: currentDatetimeTool,
    web_fetch: webFetchTool(context.outbound ?? {}),
  }) satisfies Record<BuiltinToolName, ToolSet[string]>;
