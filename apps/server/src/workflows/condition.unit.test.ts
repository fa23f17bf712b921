import { describe, expect, it } from 'vitest';
import { evaluateCondition, parseCondition } from './condition.ts';

const scope = {
  inputs: { n: 5, topic: 'tides' },
  steps: { ask: { output: 'Yes, indeed' }, data: { output: { ok: true, items: [1, 2] } } },
};

describe('workflow conditions (CEL)', () => {
  it('evaluates comparisons over inputs and step outputs', () => {
    expect(evaluateCondition('inputs.n > 3', scope)).toEqual({ ok: true, value: true });
    expect(evaluateCondition('steps.ask.output.contains("Yes")', scope)).toEqual({
      ok: true,
      value: true,
    });
    expect(
      evaluateCondition('steps.data.output.ok && size(steps.data.output.items) == 2', scope),
    ).toEqual({ ok: true, value: true });
    expect(evaluateCondition('inputs.topic == "moon"', scope)).toEqual({ ok: true, value: false });
  });

  it('lists the inputs and steps an expression reads', () => {
    const parsed = parseCondition(
      'inputs.n > 1 && steps["ask"].output == "x" || steps.data.output.ok',
    );
    expect(parsed).toMatchObject({
      ok: true,
      references: { inputs: ['n'], steps: ['ask', 'data'] },
    });
  });

  it('treats template braces and JavaScript as invalid expressions, running nothing', () => {
    for (const text of [
      '{{inputs.n}}',
      'this.constructor.constructor("return process")()',
      'process.exit(1)',
      '(() => true)()',
    ]) {
      const parsed = parseCondition(text);
      const evaluated = evaluateCondition(text, scope);
      expect(parsed.ok && evaluated.ok && evaluated.value).toBe(false);
    }
  });

  it('answers a readable reason for errors and non-boolean results', () => {
    const missing = evaluateCondition('steps.nope.output == "a"', scope);
    expect(missing.ok).toBe(false);
    expect(evaluateCondition('inputs.topic + "!"', scope)).toEqual({
      ok: false,
      reason: 'The condition must answer true or false.',
    });
  });

  it('refuses regular expressions, which could run for a long time', () => {
    expect(parseCondition('steps.ask.output.matches("(a+)+$")').ok).toBe(false);
  });
});
