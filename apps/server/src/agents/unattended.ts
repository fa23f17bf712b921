import type { Tool, ToolSet } from 'ai';

/** Why a tool call of an unattended run (workflow step, test run) ended it. */
export const needsApprovalReason = 'needs approval; unattended runs never approve tools';

/**
 * An agent's tools for an unattended run: a tool that needs approval is offered, but calling it
 * tells `onApprovalWanted` (which ends the call) instead of running — no one is there to approve it.
 */
export const unattendedTools = (
  tools: ToolSet,
  onApprovalWanted: (name: string) => void,
): ToolSet =>
  Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      if (!(tool as { needsApproval?: unknown }).needsApproval) return [name, tool];
      return [
        name,
        {
          ...tool,
          needsApproval: false,
          execute: () => {
            onApprovalWanted(name);
            throw new Error(`${name} ${needsApprovalReason}`);
          },
        } as Tool,
      ];
    }),
  );
