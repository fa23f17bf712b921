/** The Chorus mark; decorative, the product name is always written beside it. */
export const Logo = ({ className }: { className?: string }) => (
  <svg viewBox="0 0 32 32" aria-hidden="true" className={className}>
    <rect width="32" height="32" rx="8" className="fill-primary" />
    <path
      d="M9 20c2-6 5-9 7-9s5 3 7 9"
      className="stroke-primary-foreground"
      strokeWidth="2.5"
      fill="none"
      strokeLinecap="round"
    />
    <circle cx="16" cy="22" r="2" className="fill-primary-foreground" />
  </svg>
);
