import { PRODUCT_NAME } from '@fabric/contract';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { LogoMark } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { formatLongDate } from '@/lib/format';

export interface LegalSection {
  title: string;
  body: ReactNode;
}

/** Terms and privacy: public, readable without an account, numbered sections. */
export function LegalPage({
  title,
  intro,
  sections,
}: {
  title: string;
  intro: ReactNode;
  sections: readonly LegalSection[];
}) {
  useDocumentTitle(title);
  const navigate = useNavigate();
  const location = useLocation();
  // "default" is the key of the first page of this visit: there is nothing to go back to.
  const hasHistory = location.key !== 'default';

  return (
    <div className="min-h-dvh">
      <header className="sticky top-0 z-40 border-b bg-card/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-3xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link to={paths.home.href()} className="flex items-center gap-2.5 rounded-md">
            <LogoMark className="size-8" />
            <span className="text-lg font-semibold tracking-tight">{PRODUCT_NAME}</span>
          </Link>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              if (hasHistory) void navigate(-1);
              else void navigate(paths.home.href());
            }}
          >
            <ArrowLeft aria-hidden="true" />
            Back
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
        <article>
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
          <p className="mt-3 text-sm text-muted-foreground">
            Last updated: {formatLongDate(new Date())}
          </p>
          <div className="mt-6 text-base leading-relaxed text-muted-foreground">{intro}</div>
          <ol className="mt-10 grid gap-10">
            {sections.map((section, index) => (
              <li key={section.title}>
                <section aria-labelledby={`section-${index + 1}`}>
                  <h2
                    id={`section-${index + 1}`}
                    className="text-xl font-semibold tracking-tight text-foreground"
                  >
                    {index + 1}. {section.title}
                  </h2>
                  <div className="mt-3 grid gap-3 leading-relaxed text-foreground/85 [&_ul]:grid [&_ul]:list-disc [&_ul]:gap-1.5 [&_ul]:pl-5">
                    {section.body}
                  </div>
                </section>
              </li>
            ))}
          </ol>
        </article>
      </main>
    </div>
  );
}
