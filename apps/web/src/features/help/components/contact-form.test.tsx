import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Toaster } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test/render';
import { ContactForm } from './contact-form';

const routes = [
  {
    path: '/help',
    element: (
      <>
        <Toaster />
        <ContactForm />
      </>
    ),
  },
];

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('ContactForm', () => {
  it('sends name, e-mail and message and shows a success toast', async () => {
    const fetchSpy = vi.fn(async () => Response.json({ success: true }));
    vi.stubGlobal('fetch', fetchSpy);
    renderRoutes({ path: '/help', routes });

    fill('Name', 'Ann');
    fill('E-mail', 'ann@example.com');
    fill('Message', 'Hello');
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));

    expect(await screen.findByText(/Your message is on its way/)).toBeTruthy();
    await waitFor(() =>
      expect(fetchSpy).toHaveBeenCalledWith(
        '/functions/v1/contact',
        expect.objectContaining({
          method: 'POST',
          body: JSON.stringify({ name: 'Ann', email: 'ann@example.com', message: 'Hello' }),
        }),
      ),
    );
  });

  it('shows the server’s reason in an error toast', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ error: 'The contact form rate limited.' }, { status: 429 }),
      ),
    );
    renderRoutes({ path: '/help', routes });
    fill('Name', 'Ann');
    fill('E-mail', 'ann@example.com');
    fill('Message', 'Hello');
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(
      await screen.findByText('Your message could not be sent: The contact form rate limited.'),
    ).toBeTruthy();
  });

  it('names the missing fields without calling the server', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    renderRoutes({ path: '/help', routes });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Please enter your name.')).toBeTruthy();
    expect(screen.getByText('Please enter a message.')).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
