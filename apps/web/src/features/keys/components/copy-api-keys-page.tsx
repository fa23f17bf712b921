import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, KeyRound } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api-error';
import { providerName } from '@/lib/providers';
import { copySystemApiKeys } from '@/lib/system-keys';
import { ApiKeysCard } from './api-keys-card';

export const CopyApiKeysPage = () => {
  const copy = useMutation({
    mutationFn: copySystemApiKeys,
    onError: (error) =>
      toast.error('Could not copy the system keys', { description: errorMessage(error) }),
  });

  return (
    <div>
      <PageHeader
        title="API keys"
        description="For every call, Chorus uses your own key for the provider if you have one, then the default key, then a system key your administrator has enabled."
      />
      <div className="grid gap-6">
        <ApiKeysCard />
        <Card>
          <CardHeader>
            <KeyRound aria-hidden="true" className="mb-2 size-8 text-primary" />
            <CardTitle>Copy the system keys</CardTitle>
            <CardDescription>
              Copies the system keys an administrator has enabled into your own key list, so every
              provider they cover is ready to use.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div>
              <Button disabled={copy.isPending} onClick={() => copy.mutate()}>
                Copy system keys
              </Button>
            </div>
            {copy.isSuccess ? (
              <div role="status" className="rounded-md border bg-muted/40 px-4 py-3 text-sm">
                {copy.data.copied.length === 0 ? (
                  'No new system keys were available to copy.'
                ) : (
                  <>
                    <p className="flex items-center gap-2 font-medium">
                      <CheckCircle2 aria-hidden="true" className="size-4 text-primary" />
                      Copied keys for {copy.data.copied.length} provider
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
