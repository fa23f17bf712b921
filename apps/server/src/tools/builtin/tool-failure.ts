/**
 * A built-in tool's answer when it could not do what was asked: a sentence the model reads and
 * can act on (fix the input, try another URL). It is a result, not a throw, so one bad call
 * never ends a run.
 */
export type ToolFailure = { error: string };

export const toolFailure = (message: string): ToolFailure => ({ error: message });

export const isToolFailure = (value: unknown): value is ToolFailure =>
  typeof value === 'object' && value !== null && 'error' in value;
