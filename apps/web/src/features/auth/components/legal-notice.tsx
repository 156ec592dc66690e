import { Link } from 'react-router';
import { paths } from '@/config/paths';

const linkClass =
  'rounded-sm font-medium text-foreground underline underline-offset-4 hover:text-primary';

export function LegalNotice({ action }: { action: string }) {
  return (
    <p className="text-center text-xs leading-relaxed text-muted-foreground">
      By {action} you agree to our{' '}
      <Link to={paths.terms.href()} className={linkClass}>
        Terms of Service
      </Link>{' '}
      and{' '}
      <Link to={paths.privacy.href()} className={linkClass}>
        Privacy Policy
      </Link>
      .
    </p>
  );
}
