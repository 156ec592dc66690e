import { Home } from 'lucide-react';
import { Link } from 'react-router';
import { LogoMark } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';

export function NotFoundRoute() {
  useDocumentTitle('Page not found');
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 text-center">
      <LogoMark className="size-12" />
      <div className="space-y-2">
        <h1 className="text-6xl font-bold tracking-tight text-primary">404</h1>
        <p className="text-lg text-muted-foreground">Oops! Page not found</p>
      </div>
      <Button asChild size="lg">
        <Link to={paths.home.href()}>
          <Home aria-hidden="true" />
          Return to Home
        </Link>
      </Button>
    </main>
  );
}
