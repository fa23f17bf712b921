import { helpFaq } from 'virtual:help-faq';
import { useInAppLinks } from '../hooks/use-in-app-links';

/** The questions people ask most (faq.md), each opening to its answer, with where to read more. */
export const Faq = () => {
  const onClick = useInAppLinks();
  return (
    <section aria-labelledby="faq-title" className="mt-12">
      <h2 id="faq-title" className="mb-4 text-xl font-semibold">
        Frequently asked questions
      </h2>
      <div className="divide-y rounded-xl border">
        {helpFaq.map((item) => (
          <details
            key={item.id}
            id={item.id}
            className="group scroll-mt-24 px-5 py-4 [&_summary::-webkit-details-marker]:hidden"
          >
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-md font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
              {item.question}
              {/* A chevron drawn with borders: › closed, ⌄ open. */}
              <span
                aria-hidden="true"
                className="mr-1 size-2 shrink-0 -rotate-45 border-r-2 border-b-2 border-muted-foreground transition-transform group-open:rotate-45"
              />
            </summary>
            {/* Our own answers, compiled from faq.md at build time. */}
            <div
              onClick={onClick}
              className="mt-3 text-sm leading-relaxed text-muted-foreground [&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_p+p]:mt-2"
              dangerouslySetInnerHTML={{ __html: item.html }}
            />
          </details>
        ))}
      </div>
    </section>
  );
};
