import { CheckCircle2, KeyRound } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api-error';
import { providerName } from '@/lib/providers';
import { useCopySystemApiKeys } from '../api/copy-system-api-keys';
import { ApiKeysCard } from './api-keys-card';

export const CopyApiKeysPage = () => {
  const copy = useCopySystemApiKeys();
  const onCopy = () =>
    copy.mutate(undefined, {
      onError: (error) =>
        toast.error('Could not get the default keys', { description: errorMessage(error) }),
    });

  return (
    <div>
      <PageHeader
        title="API keys"
        description="For every call, Chorus uses your own key for the provider if you have one, then a default key your administrator granted you, then the system key — for providers your administrator has enabled."
      />
      <div className="grid gap-6">
        <ApiKeysCard />
        <Card>
          <CardHeader>
            <KeyRound aria-hidden="true" className="mb-2 size-8 text-primary" />
            <CardTitle>Use your administrator's default keys</CardTitle>
            <CardDescription>
              Grants you the default keys your administrator manages, by reference: nothing is
              copied into your key list, and when your administrator rotates or removes a key the
              change reaches you at once. Your own keys always come first.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div>
              <Button disabled={copy.isPending} onClick={onCopy}>
                Get default keys
              </Button>
            </div>
            {copy.isSuccess ? (
              <div role="status" className="rounded-md border bg-muted/40 px-4 py-3 text-sm">
                {copy.data.copied.length === 0 ? (
                  'You already have every default key your administrator offers.'
                ) : (
                  <>
                    <p className="flex items-center gap-2 font-medium">
                      <CheckCircle2 aria-hidden="true" className="size-4 text-primary" />
                      Granted default keys for {copy.data.copied.length} provider
                      {copy.data.copied.length === 1 ? '' : 's'}:
                    </p>
                    <ul className="mt-2 list-inside list-disc text-muted-foreground">
                      {copy.data.copied.map((id) => (
                        <li key={id}>{providerName(id)}</li>
                      ))}
                    </ul>
                  </>
                )}
              </div>
            ) : null}
          </CardContent>
        </Card>
      </div>
    </div>
  );
};
