import { describe, expect, it } from 'vitest';
import { callShape, onceRuleOf, scopeText } from './approval-scope.ts';

describe('the shape a once approval covers', () => {
  it('is the site for a web fetch: other pages of it are covered, other sites are not', () => {
    const rule = onceRuleOf('builtin:web_fetch');
    const shape = callShape(rule, { url: 'https://Example.com/a' });
    expect(callShape(rule, { url: 'https://example.com/b?x=1' })).toBe(shape);
    expect(callShape(rule, { url: 'https://example.org/a' })).not.toBe(shape);
    expect(callShape(rule, { url: 'http://example.com/a' })).not.toBe(shape);
    expect(callShape(rule, { url: 'https://example.com:8443/a' })).not.toBe(shape);
  });

  it('is the URL arguments of an HTTP tool; its other arguments may differ', () => {
    const rule = onceRuleOf('http:7a1b2c3d-0000-4000-8000-00000000abcd', ['order_id']);
    const shape = callShape(rule, { order_id: '42', note: 'a' });
    expect(callShape(rule, { note: 'b', order_id: '42' })).toBe(shape);
    expect(callShape(rule, { order_id: '43', note: 'a' })).not.toBe(shape);
    // Other argument names are another shape.
    expect(callShape(rule, { order_id: '42' })).not.toBe(shape);
  });

  it('is every value for an MCP tool, whose arguments Chorus cannot read', () => {
    const rule = onceRuleOf('mcp:7a1b2c3d-0000-4000-8000-00000000abcd');
    const shape = callShape(rule, { sql: 'select 1', db: { name: 'a', ro: true } });
    expect(callShape(rule, { db: { ro: true, name: 'a' }, sql: 'select 1' })).toBe(shape);
    expect(callShape(rule, { sql: 'drop table users', db: { name: 'a', ro: true } })).not.toBe(
      shape,
    );
  });

  it('is the argument names for the built-ins that reach nothing outside Chorus', () => {
    const rule = onceRuleOf('builtin:calculator');
    expect(callShape(rule, { expression: '1+1' })).toBe(callShape(rule, { expression: '6*7' }));
  });

  it('is said in words beside Approve', () => {
    expect(scopeText(onceRuleOf('builtin:web_fetch'))).toContain('another site asks again');
    expect(scopeText(onceRuleOf('http:x', ['order_id']))).toContain('the same order_id');
    expect(scopeText(onceRuleOf('mcp:x'))).toContain('exactly the same arguments');
  });
});
