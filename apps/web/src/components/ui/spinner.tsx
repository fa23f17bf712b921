import { cn } from '@/lib/utils';

type SpinnerProps = { className?: string; label?: string };

export const Spinner = ({ className, label = 'Loading' }: SpinnerProps) => (
  <span role="status" className="inline-flex items-center">
    <span
      aria-hidden="true"
      className={cn(
        'inline-block size-6 animate-spin rounded-full border-2 border-muted-foreground/30 border-t-primary',
        className,
      )}
    />
    <span className="sr-only">{label}</span>
  </span>
);

/** Centred in the space it is given: a feature or page that is loading. */
export const CenteredSpinner = ({ label }: { label?: string }) => (
  <div className="flex min-h-[40vh] w-full items-center justify-center">
    <Spinner className="size-8" {...(label ? { label } : {})} />
  </div>
);

/** Covers the whole viewport: the session is loading. */
export const FullPageSpinner = ({ label = 'Loading your session' }: { label?: string }) => (
  <div className="flex min-h-dvh w-full items-center justify-center">
    <Spinner className="size-10" label={label} />
  </div>
);
