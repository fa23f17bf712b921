import { CheckCircle2, XCircle } from 'lucide-react';
import type { TestApiKeyResult } from '@chorus/shared/api/keys';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/utils';

type KeyTestResultProps = {
  result: TestApiKeyResult | undefined;
  error: unknown;
  className?: string;
};

/**
 * What a key test found, on the row that was tested, where the eye already is. A live region
 * that is always there, so screen readers announce each outcome.
 */
export const KeyTestResult = ({ result, error, className }: KeyTestResultProps) => {
  let content = null;
  if (result) {
    const Icon = result.valid ? CheckCircle2 : XCircle;
    content = (
      <>
        <Icon
          aria-hidden="true"
          className={cn(
            'mt-0.5 size-4 shrink-0',
            result.valid ? 'text-emerald-600 dark:text-emerald-400' : 'text-destructive',
          )}
        />
        <span>{result.message}</span>
      </>
    );
  } else if (error) {
    content = (
      <>
        <XCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
        <span>{errorMessage(error)}</span>
      </>
    );
  }
  return (
    <p role="status" className={cn('flex items-start gap-1.5 text-sm', className)}>
      {content}
    </p>
  );
};
