import { lazy, Suspense, useEffect, useRef, useState } from 'react';

// The form (its fields and their components, about 1.5 KB of gzip) is fetched when the section
// comes near the screen, not with the help center's first paint: it sits below the guides, the
// FAQ and the shortcuts.
const ContactForm = lazy(() => import('./contact-form').then((m) => ({ default: m.ContactForm })));

/** Reserves the form's height so that nothing moves when it arrives. */
const placeholder = <div className="min-h-80" aria-hidden="true" />;

/** `/help#contact-heading`: the "Contact support" section of the help page. */
export const ContactSection = () => {
  const ref = useRef<HTMLElement>(null);
  const [near, setNear] = useState(
    () =>
      typeof IntersectionObserver === 'undefined' || window.location.hash === '#contact-heading',
  );
  useEffect(() => {
    const section = ref.current;
    if (near || !section) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(section);
    return () => observer.disconnect();
  }, [near]);
  return (
    <section
      ref={ref}
      aria-labelledby="contact-heading"
      className="mt-10 rounded-xl border p-5 sm:p-6"
    >
      <h2 id="contact-heading" className="text-lg font-semibold">
        Contact support
      </h2>
      <p className="mt-1 mb-5 text-sm text-muted-foreground">
        Didn’t find your answer? Write to us and we reply by e-mail.
      </p>
      {near ? (
        <Suspense fallback={placeholder}>
          <ContactForm />
        </Suspense>
      ) : (
        placeholder
      )}
    </section>
  );
};
