import { cn } from '@/lib/utils';

/** What a custom AI without an avatar shows: the first letters of its first two words. */
export const initialsOf = (name: string): string =>
  name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => Array.from(word)[0] ?? '')
    .join('')
    .toUpperCase() || '?';

const sizes = { sm: 'size-5 text-[0.625rem]', md: 'size-10 text-base', lg: 'size-14 text-2xl' };

/** A custom AI's avatar (an emoji or letters) in a circle; its name is said beside it. */
export const CustomAiAvatar = ({
  name,
  avatar,
  size = 'md',
  className,
}: {
  name: string;
  avatar: string;
  size?: keyof typeof sizes;
  className?: string;
}) => (
  <span
    aria-hidden="true"
    className={cn(
      'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary/10 leading-none font-semibold text-primary select-none',
      sizes[size],
      className,
    )}
  >
    {avatar.trim() || initialsOf(name)}
  </span>
);
