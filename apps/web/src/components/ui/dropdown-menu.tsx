import { DropdownMenu as Primitive } from 'radix-ui';
import { Check } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export const DropdownMenu = Primitive.Root;
export const DropdownMenuTrigger = Primitive.Trigger;
export const DropdownMenuGroup = Primitive.Group;
export const DropdownMenuRadioGroup = Primitive.RadioGroup;

export const DropdownMenuContent = ({
  className,
  sideOffset = 6,
  container,
  ...props
}: ComponentProps<typeof Primitive.Content> & {
  /** Where the menu is put; inside a modal <dialog> it must be, or it is inert. */
  container?: Element | null | undefined;
}) => (
  <Primitive.Portal container={container}>
    <Primitive.Content
      sideOffset={sideOffset}
      className={cn(
        'z-50 min-w-[10rem] overflow-hidden rounded-md border bg-popover p-1 text-popover-foreground shadow-md',
        className,
      )}
      {...props}
    />
  </Primitive.Portal>
);

const itemClass =
  'relative flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none select-none focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0';

export const DropdownMenuItem = ({
  className,
  ...props
}: ComponentProps<typeof Primitive.Item>) => (
  <Primitive.Item className={cn(itemClass, className)} {...props} />
);

export const DropdownMenuRadioItem = ({
  className,
  children,
  ...props
}: ComponentProps<typeof Primitive.RadioItem>) => (
  <Primitive.RadioItem className={cn(itemClass, 'pr-8', className)} {...props}>
    {children}
    <span className="absolute right-2 flex size-3.5 items-center justify-center">
      <Primitive.ItemIndicator>
        <Check />
      </Primitive.ItemIndicator>
    </span>
  </Primitive.RadioItem>
);

export const DropdownMenuLabel = ({
  className,
  ...props
}: ComponentProps<typeof Primitive.Label>) => (
  <Primitive.Label className={cn('px-2 py-1.5 text-sm font-medium', className)} {...props} />
);

export const DropdownMenuSeparator = ({
  className,
  ...props
}: ComponentProps<typeof Primitive.Separator>) => (
  <Primitive.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />
);
