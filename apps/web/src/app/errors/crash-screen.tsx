import { AlertTriangle } from 'lucide-react';
import { messages } from '@chorus/shared/messages';
import { Button } from '@/components/ui/button';

type CrashScreenProps = { onRetry: () => void };

/** Spec §8: the crash screen. Error details are deliberately not shown. */
export const CrashScreen = ({ onRetry }: CrashScreenProps) => (
  <div role="alert" className="flex min-h-[50vh] items-center justify-center px-4 py-12">
    <div className="flex max-w-md flex-col items-center text-center">
      <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-destructive/10">
        <AlertTriangle aria-hidden="true" className="size-6 text-destructive" />
      </div>
      <h1 className="text-xl font-semibold">{messages.crash.title}</h1>
      <p className="mt-2 text-sm text-muted-foreground">{messages.crash.body}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Button onClick={() => window.location.reload()}>{messages.crash.refresh}</Button>
        <Button variant="outline" onClick={onRetry}>
          {messages.crash.retry}
        </Button>
      </div>
    </div>
  </div>
);
