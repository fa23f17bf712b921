import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { SignInForm } from './sign-in-form';
import { validateCredentials } from './validate-credentials';

describe('sign-in form validation', () => {
  it('asks for an email and a password before calling the server', () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    const onSignedIn = vi.fn(async () => {});
    render(<SignInForm onSignedIn={onSignedIn} onForgotPassword={() => {}} />);

    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert').textContent).toBe(messages.auth.credentialsRequired);

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert').textContent).toBe(messages.auth.credentialsRequired);

    expect(fetchSpy).not.toHaveBeenCalled();
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('accepts an email with a password', () => {
    expect(validateCredentials('ada@example.com', 'secret-password')).toEqual({});
    expect(validateCredentials('  ', 'secret-password').form).toBe(
      messages.auth.credentialsRequired,
    );
    expect(validateCredentials('ada@example.com', 'short', { checkLength: true }).password).toMatch(
      /at least/,
    );
  });
});
