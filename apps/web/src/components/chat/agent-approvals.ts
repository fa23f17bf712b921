import { createContext, useContext } from 'react';
import type { ChatRow } from '@/lib/chat/chat-rows';

/**
 * How a chat answers the tool calls an agent waits on (issue 18): each call is approved or
 * refused; once every waiting call of a reply has an answer, the run goes on.
 */
export type AgentApprovals = {
  /** The answer given in this tab to a waiting call, if any. */
  decisionOf(approvalId: string): boolean | undefined;
  decide(row: ChatRow, approvalId: string, approved: boolean): void;
  /** The reply's run is going on (its answers were sent). */
  sending(rowId: string): boolean;
  /** Why sending the answers failed, for the reply. */
  errorOf(rowId: string): string | undefined;
};

export const AgentApprovalsContext = createContext<AgentApprovals | null>(null);

export const useAgentApprovals = () => useContext(AgentApprovalsContext);
