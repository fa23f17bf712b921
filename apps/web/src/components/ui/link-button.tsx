import type { VariantProps } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonVariants } from './button';

type LinkButtonProps = VariantProps<typeof buttonVariants> & {
  to: string;
  children: ReactNode;
  className?: string;
};

/** A link that looks like a button: it navigates, so it stays an <a>. */
export const LinkButton = ({ to, children, variant, size, className }: LinkButtonProps) => (
  <Link to={to} className={buttonVariants({ variant, size, className })}>
    {children}
  </Link>
);
