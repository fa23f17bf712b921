import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toolCallView } from '@/lib/chat/chat-rows';
import { ToolCallPart } from './tool-call-part';

const scope =
  'Approving also lets later calls in this conversation run without asking when they go to the same site; another site asks again.';

describe('a tool call waiting for approval', () => {
  it('says what a yes to a tool asked once also covers, beside Approve', () => {
    const onDecide = vi.fn();
    const call = toolCallView({
      id: 'c1',
      approval_id: 'a1',
      name: 'web_fetch',
      input: { url: 'https://example.com/a' },
      state: 'awaiting-approval',
      error: null,
      duration_ms: null,
      approval_scope: scope,
    });
    render(
      <ToolCallPart call={call} approval={{ decision: undefined, onDecide, sending: false }} />,
    );
    expect(screen.getByText(scope)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onDecide).toHaveBeenCalledWith(true);
  });

  it('says nothing more for a tool asked every time', () => {
    const call = toolCallView({
      id: 'c2',
      approval_id: 'a2',
      name: 'calculator',
      input: { expression: '6*7' },
      state: 'awaiting-approval',
      error: null,
      duration_ms: null,
    });
    render(
      <ToolCallPart
        call={call}
        approval={{ decision: undefined, onDecide: () => undefined, sending: false }}
      />,
    );
    expect(screen.queryByText(/Approving also lets/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
  });
});
