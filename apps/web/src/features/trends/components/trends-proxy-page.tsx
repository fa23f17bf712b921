import { Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { trendPresetQuestions, type TrendsAsk } from '@chorus/shared/api/trends';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { Markdown } from '@/components/chat/markdown/markdown';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Textarea } from '@/components/ui/textarea';
import { providerList } from '@/lib/providers';
import { useEnabledProviders } from '@/lib/queries/enabled-providers';
import { useKeyAvailability } from '@/lib/queries/key-availability';
import { usePageMeta } from '@/lib/use-page-meta';
import { useTrendsAnswer, type AnswerState } from '../api/ask-trends';
import { answerStatusText, describeFailure } from '../utils/answer-text';

const questionMax = 2_000;

const ProviderPicker = ({
  value,
  onChange,
}: {
  value: ProviderId | '';
  onChange: (provider: ProviderId | '') => void;
}) => {
  const id = useId();
  const enabled = useEnabledProviders();
  const keys = useKeyAvailability().data;
  const ids = enabled ?? providerList.map((p) => p.id);
  const noKey = (provider: ProviderId) => {
    const entry = keys?.find((k) => k.provider === provider);
    return entry !== undefined && (!entry.enabled || entry.source === null);
  };
  return (
    <div className="grid gap-1.5 sm:w-64">
      <label htmlFor={id} className="text-sm font-medium">
        Provider
      </label>
      <NativeSelect
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as ProviderId | '')}
      >
        <option value="">Let Chorus choose</option>
        {ids.map((provider) => (
          <option key={provider} value={provider}>
            {providers[provider].name}
            {noKey(provider) ? ' (no key)' : ''}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
};

const Answer = ({ state, onRetry }: { state: AnswerState; onRetry: () => void }) => {
  const failure =
    state.status === 'failed' ? describeFailure(state.error, state.text !== '') : null;
  const provider = state.request?.provider;
  return (
    <section
      aria-labelledby="trends-answer-title"
      aria-busy={state.status === 'streaming'}
      className="rounded-xl border bg-card p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="trends-answer-title" className="text-lg font-semibold">
            Answer
          </h2>
          <p className="mt-0.5 text-sm break-words text-muted-foreground">
            “{state.request?.question}”{provider ? ` · ${providers[provider].name}` : ''}
          </p>
        </div>
        {state.status === 'streaming' ? null : (
          <Button variant="outline" size="sm" onClick={onRetry}>
            {state.status === 'done' ? 'Ask again' : 'Retry'}
          </Button>
        )}
      </div>
      <p role="status" className="mt-3 flex items-center gap-2 text-sm text-muted-foreground">
        {state.status === 'streaming' ? (
          <span
            aria-hidden="true"
            className="inline-block size-3.5 animate-spin rounded-full border-2 border-muted-foreground/30 border-t-primary"
          />
        ) : null}
        {answerStatusText(state)}
      </p>
      {failure ? (
        <div
          role="alert"
          className="mt-3 rounded-md border border-destructive/40 p-3 text-sm text-destructive"
        >
          {failure.message}
          {failure.action || failure.help ? (
            <span className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
              {failure.action ? (
                <Link
                  to={failure.action.to}
                  className="font-medium text-foreground underline underline-offset-4"
                >
                  {failure.action.label}
                </Link>
              ) : null}
              {failure.help ? (
                <Link
                  to={failure.help}
                  className="font-medium text-foreground underline underline-offset-4"
                >
                  What this means
                </Link>
              ) : null}
            </span>
          ) : null}
        </div>
      ) : null}
      {state.text ? (
        <div data-testid="trends-answer" className="mt-4 text-sm">
          <Markdown content={state.text} />
        </div>
      ) : null}
    </section>
  );
};

export const TrendsProxyPage = () => {
  usePageMeta({
    title: 'Ask AI about trends',
    description:
      'Ask a model about the trend lists and this instance’s most-used prompts and scenarios; the answer streams in.',
  });
  const questionId = useId();
  const [question, setQuestion] = useState('');
  const [provider, setProvider] = useState<ProviderId | ''>('');
  const [missing, setMissing] = useState(false);
  const { state, ask, stop, retry } = useTrendsAnswer();
  const busy = state.status === 'streaming';

  const send = (text: string) => {
    const trimmed = text.trim();
    if (!trimmed) {
      setMissing(true);
      return;
    }
    setMissing(false);
    const request: TrendsAsk = provider ? { question: trimmed, provider } : { question: trimmed };
    void ask(request);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send(question);
  };

  return (
    <div>
      <PageHeader
        title="Ask AI about trends"
        description="A model reads the trend lists (the sample figures and this instance's most-used prompts and scenarios) and answers your question. It runs with your keys and counts against your quota."
        actions={
          <LinkButton to="/trends" variant="outline">
            See the trends
          </LinkButton>
        }
      />
      <div className="grid gap-6">
        <form onSubmit={onSubmit} className="grid gap-4 rounded-xl border bg-card p-4 sm:p-5">
          <div role="group" aria-labelledby="trends-presets" className="grid gap-2">
            <p id="trends-presets" className="text-sm font-medium">
              Preset questions
            </p>
            <div className="flex flex-wrap gap-2">
              {trendPresetQuestions.map((preset) => (
                <Button
                  key={preset}
                  variant="outline"
                  size="sm"
                  disabled={busy}
                  className="h-auto min-h-8 max-w-full py-1.5 text-left whitespace-normal"
                  onClick={() => {
                    setQuestion(preset);
                    send(preset);
                  }}
                >
                  {preset}
                </Button>
              ))}
            </div>
          </div>
          <div className="grid gap-1.5">
            <label htmlFor={questionId} className="text-sm font-medium">
              Your question
            </label>
            <Textarea
              id={questionId}
              rows={3}
              maxLength={questionMax}
              value={question}
              placeholder="Which of these would suit a support team?"
              aria-invalid={missing || undefined}
              aria-describedby={`${questionId}-hint`}
              onChange={(event) => {
                setQuestion(event.target.value);
                if (missing) setMissing(false);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.metaKey || event.ctrlKey) && !busy) {
                  event.preventDefault();
                  send(question);
                }
              }}
            />
            <p
              id={`${questionId}-hint`}
              className={missing ? 'text-sm text-destructive' : 'text-xs text-muted-foreground'}
            >
              {missing
                ? 'Ask a question, or pick one of the presets.'
                : 'Ctrl+Enter (⌘+Enter on a Mac) asks. At most 2,000 characters.'}
            </p>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
            <ProviderPicker value={provider} onChange={setProvider} />
            <div className="flex gap-2">
              {busy ? (
                <Button variant="outline" onClick={stop}>
                  Stop
                </Button>
              ) : null}
              <Button type="submit" disabled={busy}>
                <Send aria-hidden="true" />
                Ask
              </Button>
            </div>
          </div>
          <details className="text-sm text-muted-foreground">
            <summary className="cursor-pointer font-medium text-foreground">
              What the model is given
            </summary>
            <p className="mt-2 max-w-2xl">
              Your question and the lists on the{' '}
              <Link to="/trends" className="font-medium text-primary underline underline-offset-4">
                Trends page
              </Link>
              : the sample figures, and this instance&apos;s most-copied public prompts and most-run
              cookbook scenarios over 7 and 30 days (totals only). Nothing from your conversations
              or prompts is sent.
            </p>
          </details>
        </form>
        {state.status === 'idle' ? null : <Answer state={state} onRetry={retry} />}
      </div>
    </div>
  );
};
