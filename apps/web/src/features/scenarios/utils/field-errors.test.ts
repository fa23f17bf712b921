import { describe, expect, it } from 'vitest';
import { errorFor, parseFieldErrors } from './field-errors';

describe('parseFieldErrors', () => {
  it('splits the server message into one sentence per field', () => {
    const errors = parseFieldErrors(
      'Field title: Give the scenario a title. Field parameters.temperature: The temperature is between 0 and 2. Field targets.1.provider: Unknown provider. Use one of: openai, anthropic.',
    );
    expect(errors).toEqual({
      title: 'Give the scenario a title.',
      'parameters.temperature': 'The temperature is between 0 and 2.',
      'targets.1.provider': 'Unknown provider. Use one of: openai, anthropic.',
    });
    expect(errorFor(errors, 'targets')).toBe('Unknown provider. Use one of: openai, anthropic.');
    expect(errorFor(errors, 'description')).toBeUndefined();
  });

  it('keeps a message that names no field under the empty path', () => {
    expect(parseFieldErrors('Send at least one field to change.')).toEqual({
      '': 'Send at least one field to change.',
    });
  });
});
