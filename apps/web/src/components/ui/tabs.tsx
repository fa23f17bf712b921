import { Tabs as Primitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export const Tabs = Primitive.Root;

export const TabsList = ({ className, ...props }: ComponentProps<typeof Primitive.List>) => (
  <Primitive.List
    className={cn(
      'inline-flex h-9 w-full items-center justify-center rounded-lg bg-muted p-1 text-muted-foreground',
      className,
    )}
    {...props}
  />
);

export const TabsTrigger = ({ className, ...props }: ComponentProps<typeof Primitive.Trigger>) => (
  <Primitive.Trigger
    className={cn(
      'inline-flex h-full flex-1 items-center justify-center rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm dark:data-[state=active]:bg-input/40',
      className,
    )}
    {...props}
  />
);

export const TabsContent = ({ className, ...props }: ComponentProps<typeof Primitive.Content>) => (
  <Primitive.Content className={cn('mt-4 outline-none', className)} {...props} />
);
