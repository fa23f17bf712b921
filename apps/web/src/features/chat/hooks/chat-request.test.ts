import { describe, expect, it } from 'vitest';
import { chatRequestSchema } from '@chorus/shared/api/conversations';
import { buildChatRequest, type ChatSendOptions } from './chat-request';

const conversationId = '0b9f6a4e-6f0e-4a53-9d0c-1b7c2f0e2a11';
const userMessageId = '5e2b1c1a-7f3d-4c61-8a8e-2f9d3b6c4d21';

const options: ChatSendOptions = {
  conversationId,
  provider: 'anthropic',
  settings: { model: 'claude-haiku-4-5', temperature: 0.4, topP: undefined, maxTokens: 800 },
};

describe('the chat request body', () => {
  it('sends only the new text and the settings: the server holds the history', () => {
    const body = buildChatRequest(options, 'submit-message', 'Hello there');
    expect(body).toEqual({
      conversation_id: conversationId,
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      temperature: 0.4,
      max_tokens: 800,
      text: 'Hello there',
    });
    expect(chatRequestSchema.safeParse(body).success).toBe(true);
  });

  it('names the saved prompt the text came from, so its use is counted', () => {
    const promptId = '7d1e0c52-3b8a-4f0e-9a61-2c5b8e9f0a13';
    const body = buildChatRequest({ ...options, promptId }, 'submit-message', 'Filled text');
    expect(body.prompt_id).toBe(promptId);
    expect(chatRequestSchema.safeParse(body).success).toBe(true);
    const regenerated = buildChatRequest({ ...options, promptId }, 'regenerate-message', '');
    expect(regenerated.prompt_id).toBeUndefined();
  });

  it('asks to answer the last user message again on regenerate, without text', () => {
    const body = buildChatRequest(options, 'regenerate-message', 'ignored');
    expect(body).toEqual({
      conversation_id: conversationId,
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      temperature: 0.4,
      max_tokens: 800,
      regenerate: true,
    });
    expect(chatRequestSchema.safeParse(body).success).toBe(true);
  });

  it('names the replaced message and carries the new text on edit-and-resend', () => {
    const body = buildChatRequest({ ...options, editOf: userMessageId }, 'submit-message', 'Fixed');
    expect(body).toMatchObject({ edit_of: userMessageId, text: 'Fixed' });
    expect(body).not.toHaveProperty('regenerate');
    expect(chatRequestSchema.safeParse(body).success).toBe(true);
  });

  it('includes top P only when the user set one', () => {
    const body = buildChatRequest(
      { ...options, settings: { ...options.settings, topP: 0.8, maxTokens: undefined } },
      'submit-message',
      'Hi',
    );
    expect(body.top_p).toBe(0.8);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('names the custom AI instead of a model and settings: the custom AI brings its own', () => {
    const customAiId = '3c9a7b1e-2d4f-4e8a-9b6c-1a2b3c4d5e6f';
    const body = buildChatRequest({ ...options, customAiId }, 'submit-message', 'Ahoy');
    expect(body).toEqual({
      conversation_id: conversationId,
      provider: 'anthropic',
      custom_ai_id: customAiId,
      text: 'Ahoy',
    });
    expect(chatRequestSchema.safeParse(body).success).toBe(true);
    expect(buildChatRequest({ ...options, customAiId }, 'regenerate-message', '')).toEqual({
      conversation_id: conversationId,
      provider: 'anthropic',
      custom_ai_id: customAiId,
      regenerate: true,
    });
  });
});
