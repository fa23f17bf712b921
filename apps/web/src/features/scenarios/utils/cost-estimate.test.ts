import { describe, expect, it } from 'vitest';
import { assumedOutputTokens, estimateRunCost, estimateTokens } from './cost-estimate';
import { formatDuration, formatUsd } from './format-run';

describe('estimateRunCost', () => {
  it('counts characters ÷ 4 of both prompts as input and max_tokens as output, at list price', () => {
    const estimate = estimateRunCost({
      systemPrompt: 'a'.repeat(400),
      userPrompt: 'b'.repeat(3_600),
      maxTokens: 1_000,
      targets: [{ provider: 'openai', model: 'gpt-5-mini' }],
    });
    // 1,000 input tokens at $0.25/M + 1,000 output tokens at $2/M.
    expect(estimate.targets).toEqual([
      {
        provider: 'openai',
        model: 'gpt-5-mini',
        inputTokens: 1_000,
        outputTokens: 1_000,
        usd: 0.00225,
      },
    ]);
    expect(estimate.knownUsd).toBe(0.00225);
    expect(estimate.outputAssumed).toBe(false);
  });

  it('assumes 500 output tokens when no max_tokens is set, and says so', () => {
    const estimate = estimateRunCost({
      systemPrompt: '',
      userPrompt: 'Hi',
      maxTokens: null,
      targets: [{ provider: 'anthropic', model: 'claude-haiku-4-5' }],
    });
    expect(estimate.targets[0]?.outputTokens).toBe(assumedOutputTokens);
    expect(estimate.outputAssumed).toBe(true);
  });

  it("prices an empty model as the provider's default", () => {
    const estimate = estimateRunCost({
      systemPrompt: '',
      userPrompt: 'x'.repeat(4),
      maxTokens: 10,
      targets: [{ provider: 'mistral', model: '' }],
    });
    expect(estimate.targets[0]?.model).toBe('mistral-large-latest');
    expect(estimate.targets[0]?.usd).toBe((1 * 2 + 10 * 6) / 1_000_000);
  });

  it('leaves a model without a known price out of the total and counts it as unknown', () => {
    const estimate = estimateRunCost({
      systemPrompt: '',
      userPrompt: 'x'.repeat(4_000),
      maxTokens: null,
      targets: [
        { provider: 'openrouter', model: 'openrouter/auto' },
        { provider: 'ollama', model: 'llama2' },
        { provider: 'deepseek', model: 'deepseek-chat' },
      ],
    });
    expect(estimate.targets.map((t) => t.usd)).toEqual([
      null,
      0,
      (1_000 * 0.28 + 500 * 0.42) / 1e6,
    ]);
    expect(estimate.unknownPrices).toBe(1);
    expect(estimate.knownUsd).toBe(0.00049);
  });

  it('rounds a token count up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcde')).toBe(2);
  });
});

describe('run figures', () => {
  it('shows a fraction of a cent with its significant digits', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.00042)).toBe('$0.00042');
    expect(formatUsd(0.0123)).toBe('$0.0123');
    expect(formatUsd(2.5)).toBe('$2.50');
  });

  it('shows short times in milliseconds and longer ones in seconds', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1_420)).toBe('1.4 s');
    expect(formatDuration(12_400)).toBe('12 s');
  });
});
