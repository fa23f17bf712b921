import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { providerList } from '@/lib/providers';
import { shortcuts } from '@/lib/shortcuts';
import { ContactForm } from './contact-form';

type Topic = { question: string; answer: ReactNode };

const inlineLink = 'font-medium text-primary underline-offset-4 hover:underline';

const topics: Topic[] = [
  {
    question: 'How do I get started?',
    answer: (
      <>
        <Link to="/auth?mode=sign-up" className={inlineLink}>
          Create an account
        </Link>{' '}
        with your email and a password. You land in the chat; the{' '}
        <Link to="/start" className={inlineLink}>
          Start
        </Link>{' '}
        page walks you through the rest.
      </>
    ),
  },
  {
    question: 'Which AI providers can I use?',
    answer: `Chorus speaks to ${providerList.map((p) => p.name).join(', ')}. You choose the default provider in the chat; it is remembered on this device.`,
  },
  {
    question: 'Do I need my own API keys?',
    answer:
      'Not always. For each call Chorus uses your own key for that provider if you have saved one, otherwise the default key, otherwise a system key an administrator has enabled. Keys are stored encrypted on the server and are never shown again in full.',
  },
  {
    question: 'I forgot my password. What now?',
    answer: (
      <>
        On the{' '}
        <Link to="/auth" className={inlineLink}>
          sign-in page
        </Link>{' '}
        choose “Forgot password?” and enter your email. The link in the email lets you choose a new
        password once, for a limited time.
      </>
    ),
  },
  {
    question: 'How do I change my name or password?',
    answer: (
      <>
        Open your{' '}
        <Link to="/profile" className={inlineLink}>
          profile
        </Link>
        . Your public name is what others see on anything you share; changing your password signs
        you out on your other devices.
      </>
    ),
  },
  {
    question: 'Can I use dark mode?',
    answer:
      'Yes. The sun or moon button in the header switches between Light, Dark and System, which follows your operating system. The choice is remembered on this device.',
  },
  {
    question: 'Is there an API?',
    answer: (
      <>
        Yes. The{' '}
        <Link to="/api-docs" className={inlineLink}>
          API reference
        </Link>{' '}
        lists every endpoint with its request and response shapes.
      </>
    ),
  },
];

export const HelpPage = () => (
  <div>
    <PageHeader title="Help center" description="Answers to the questions people ask most." />
    <div className="divide-y rounded-xl border">
      {topics.map((topic) => (
        <details
          key={topic.question}
          className="group px-5 py-4 [&_summary::-webkit-details-marker]:hidden"
        >
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-md font-medium">
            {topic.question}
            <ChevronRight
              aria-hidden="true"
              className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90"
            />
          </summary>
          <p className="mt-3 text-sm leading-relaxed text-muted-foreground">{topic.answer}</p>
        </details>
      ))}
    </div>
    <section aria-labelledby="shortcuts" className="mt-8">
      <h2 id="shortcuts" className="mb-3 text-lg font-semibold">
        Keyboard shortcuts
      </h2>
      <table className="w-full max-w-xl text-sm">
        <caption className="sr-only">Keyboard shortcuts in the chat</caption>
        <thead className="text-left text-muted-foreground">
          <tr>
            <th scope="col" className="py-1.5 pr-4 font-medium">
              Keys
            </th>
            <th scope="col" className="py-1.5 font-medium">
              What they do
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {shortcuts.map((shortcut) => (
            <tr key={shortcut.id}>
              <td className="py-1.5 pr-4 whitespace-nowrap">
                <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">
                  {shortcut.keys()}
                </kbd>
              </td>
              <td className="py-1.5">{shortcut.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
    <ContactForm />
  </div>
);
