import { Ban, CheckCircle2, CircleDashed } from 'lucide-react';
import type { KeySource, ProviderAvailability } from '@chorus/shared/api/keys';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { providerList } from '@/lib/providers';
import { useKeyAvailability } from '../api/get-key-availability';

export const keySourceLabel: Record<KeySource, string> = {
  user: 'Your key',
  default: 'Default key from your administrator',
  system: 'System key',
  none: 'Runs locally, no key needed',
};

const Status = ({ entry }: { entry: ProviderAvailability }) => {
  if (!entry.enabled) {
    return (
      <span className="inline-flex items-center gap-1.5 text-muted-foreground">
        <Ban aria-hidden="true" className="size-3.5" />
        Turned off by your administrator
      </span>
    );
  }
  if (!entry.source) {
    return (
      <span className="inline-flex flex-wrap items-center gap-1.5 text-muted-foreground">
        <CircleDashed aria-hidden="true" className="size-3.5" />
        No key available —
        <a
          className="font-medium text-primary underline-offset-4 hover:underline"
          href={`#key-${entry.provider}`}
        >
          add one below
        </a>
      </span>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <CheckCircle2 aria-hidden="true" className="size-3.5 text-primary" />
      {keySourceLabel[entry.source]}
      {entry.key_hint ? <code className="font-mono">{entry.key_hint}</code> : null}
    </span>
  );
};

/** Which providers the user can use right now, and which key each call would use. */
export const KeyAvailabilityCard = () => {
  const availability = useKeyAvailability();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Available to you</CardTitle>
        <CardDescription>
          For every call Chorus uses your own key first, then a default key your administrator
          granted you, then the system key.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {availability.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label="Checking which providers you can use" />
          </div>
        ) : availability.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Could not check which providers you can use: {errorMessage(availability.error)} Reload
            the page to try again.
          </p>
        ) : (
          <ul aria-label="Providers available to you" className="divide-y">
            {providerList.map((provider) => {
              const entry = availability.data.find((a) => a.provider === provider.id);
              if (!entry) return null;
              return (
                <li
                  key={provider.id}
                  className="grid gap-1 py-3 text-sm first:pt-0 last:pb-0 sm:grid-cols-[14rem_1fr] sm:gap-6"
                >
                  <span className="flex items-center gap-2 font-medium">
                    <span
                      aria-hidden="true"
                      className="inline-block size-2.5 rounded-full"
                      style={{ backgroundColor: provider.color }}
                    />
                    {provider.name}
                  </span>
                  <Status entry={entry} />
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
};
