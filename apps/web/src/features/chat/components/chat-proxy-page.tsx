import { Send } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { isProviderId, providers } from '@chorus/shared/providers';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-error';
import { providerList } from '@/lib/providers';
import { useAiProxy } from '../api/ai-proxy';
import { useProviderSettings } from '@/lib/chat/provider-settings';
import { useChatFeature } from './chat-context';
import { Markdown } from '@/components/chat/markdown/markdown';

/** One prompt, one answer, through the server's ai-api-proxy; nothing is saved. */
export const ChatProxyPage = () => {
  const { provider, setProvider } = useChatFeature();
  const { settings, update } = useProviderSettings(provider);
  const proxy = useAiProxy();
  const [prompt, setPrompt] = useState('');
  const providerId = useId();
  const modelId = useId();
  const promptId = useId();

  const submit = () => {
    if (!prompt.trim() || proxy.isPending) return;
    proxy.mutate({ provider, model: settings.model, prompt });
  };

  return (
    <div>
      <PageHeader
        title="Chat proxy"
        description="Send a single prompt to any provider through the server and read the answer. Nothing is kept as a conversation."
      />
      <Card>
        <CardContent className="grid gap-4 pt-6">
          <form
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor={providerId}>Provider</Label>
                <NativeSelect
                  id={providerId}
                  value={provider}
                  onChange={(event) => {
                    if (isProviderId(event.target.value)) setProvider(event.target.value);
                  }}
                >
                  {providerList.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.name}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-2">
                <Label htmlFor={modelId}>Model</Label>
                <NativeSelect
                  id={modelId}
                  value={settings.model}
                  onChange={(event) => update('model', event.target.value)}
                >
                  {(providers[provider].models.some((m) => m.value === settings.model)
                    ? providers[provider].models
                    : [
                        { value: settings.model, label: settings.model, description: '' },
                        ...providers[provider].models,
                      ]
                  ).map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            </div>
            <div className="grid gap-2">
              <Label htmlFor={promptId}>Prompt</Label>
              <Textarea
                id={promptId}
                rows={5}
                value={prompt}
                placeholder="Ask anything…"
                onChange={(event) => setPrompt(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit();
                }}
              />
              <p className="text-xs text-muted-foreground">
                Ctrl+Enter sends. The server times out after 20 seconds.
              </p>
            </div>
            <div>
              <Button type="submit" disabled={!prompt.trim() || proxy.isPending}>
                {proxy.isPending ? (
                  <Spinner className="size-4" label="Waiting for the answer" />
                ) : (
                  <Send />
                )}
                Send
              </Button>
            </div>
          </form>
          {proxy.error ? (
            <div
              role="alert"
              className="rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive"
            >
              {isApiError(proxy.error) && proxy.error.code === 'keys:missing' ? (
                <>
                  No API key is available for {providers[provider].name}.{' '}
                  <Link to="/copy-api-keys" className="underline underline-offset-4">
                    Add an API key
                  </Link>
                </>
              ) : (
                errorMessage(proxy.error, 'The provider did not answer')
              )}
            </div>
          ) : null}
          {proxy.data ? (
            <section aria-label="Answer" className="rounded-lg border bg-muted/30 p-4">
              <Markdown content={proxy.data.response} className="text-sm" />
            </section>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
};
