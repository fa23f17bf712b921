import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export const Card = ({ className, ...props }: ComponentProps<'div'>) => (
  <div
    className={cn(
      'flex flex-col gap-6 rounded-xl border bg-card py-6 text-card-foreground shadow-sm',
      className,
    )}
    {...props}
  />
);

export const CardHeader = ({ className, ...props }: ComponentProps<'div'>) => (
  <div className={cn('flex flex-col gap-1.5 px-6', className)} {...props} />
);

/** A card's title; `asHeading="h1"` when the card is the page (the sign-in card). */
export const CardTitle = ({
  className,
  asHeading: Heading = 'h2',
  ...props
}: ComponentProps<'h2'> & { asHeading?: 'h1' | 'h2' | 'h3' }) => (
  <Heading className={cn('leading-none font-semibold', className)} {...props} />
);

export const CardDescription = ({ className, ...props }: ComponentProps<'p'>) => (
  <p className={cn('text-sm text-muted-foreground', className)} {...props} />
);

export const CardContent = ({ className, ...props }: ComponentProps<'div'>) => (
  <div className={cn('px-6', className)} {...props} />
);

export const CardFooter = ({ className, ...props }: ComponentProps<'div'>) => (
  <div className={cn('flex items-center px-6', className)} {...props} />
);
