import { describe, expect, it } from 'vitest';
import { references, renderTemplate, TemplateError } from './template.ts';

const scope = {
  inputs: { topic: 'tides', count: 3 },
  steps: {
    fetch: { output: { items: [{ name: 'first' }], ok: true } },
    ask: { output: '{"answer": {"value": 42}}' },
    plain: { output: 'Just text' },
  },
};

describe('workflow templates', () => {
  it('substitutes inputs and step outputs, JSON-stringifying what is not text', () => {
    expect(
      renderTemplate('About {{inputs.topic}} x{{ inputs.count }}: {{steps.plain.output}}', scope),
    ).toBe('About tides x3: Just text');
    expect(renderTemplate('{{steps.fetch.output}}', scope)).toBe(
      '{"items":[{"name":"first"}],"ok":true}',
    );
  });

  it('follows a path into an object output, or into JSON text', () => {
    expect(renderTemplate('{{steps.fetch.output.items.0.name}}', scope)).toBe('first');
    expect(renderTemplate('{{steps.ask.output.answer.value}}', scope)).toBe('42');
  });

  it('refuses a reference that names nothing', () => {
    expect(() => renderTemplate('{{inputs.nope}}', scope)).toThrow(TemplateError);
    expect(() => renderTemplate('{{steps.gone.output}}', scope)).toThrow(TemplateError);
    expect(() => renderTemplate('{{steps.fetch.output.missing}}', scope)).toThrow(TemplateError);
    expect(() => renderTemplate('{{constructor.constructor}}', scope)).toThrow(TemplateError);
    expect(() => renderTemplate('{{steps.fetch.output.__proto__}}', scope)).toThrow(TemplateError);
  });

  it('lists references for checks at save time', () => {
    expect(references('{{inputs.a}} {{steps.b.output.c}} {{7*7}} plain')).toEqual([
      { raw: '{{inputs.a}}', kind: 'input', name: 'a' },
      { raw: '{{steps.b.output.c}}', kind: 'step', stepId: 'b', path: ['c'] },
      { raw: '{{7*7}}', kind: 'unknown' },
    ]);
  });

  it('runs nothing: text that looks like code stays text', () => {
    expect(renderTemplate('${process.exit()} {{inputs.topic}}', scope)).toBe(
      '${process.exit()} tides',
    );
  });
});
