import { PRODUCT_NAME, PRODUCT_TAGLINE } from '@fabric/contract';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { LogoMark } from '@/components/logo';
import { paths } from '@/config/paths';
import { useUnreadCount } from '@/features/notifications/api/get-unread-count';
import { useStoredRole } from '@/hooks/use-stored-session';
import { cn } from '@/lib/utils';
import { AccountMenu } from './account-menu';
import { navItemsByRole } from './nav-items';

/** "3", or "99+" when there are more than fit a badge. */
function badgeText(count: number): string {
  return count > 99 ? '99+' : count.toString();
}

const unreadBadgeClassName =
  'min-w-[1.125rem] items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-[1.125rem] font-semibold text-destructive-foreground tabular-nums';

/** The shell of every signed-in page: sticky header (brand, nav pills, account menu), main, footer. */
export function AppLayout({ children }: { children: ReactNode }) {
  const role = useStoredRole();
  // No polling: live updates invalidate ['notifications'] when one is created or read.
  const unreadCount = useUnreadCount().data ?? 0;

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <header className="sticky top-0 z-40 border-b bg-card/90 backdrop-blur supports-backdrop-filter:bg-card/75">
        {/* DOM (and tab) order is brand, nav, account. Phones and tablets show brand and account
            on top and the nav below; wide screens one row with the nav centred on the page. */}
        <div className="mx-auto flex max-w-7xl flex-wrap items-center px-4 sm:px-6 xl:grid xl:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] xl:gap-x-6 lg:px-8">
          <Link
            to={paths.home.href()}
            className="order-1 flex h-16 min-w-0 items-center gap-2.5 rounded-md"
          >
            <LogoMark />
            <span className="flex min-w-0 flex-col">
              <span className="text-lg leading-tight font-semibold tracking-tight">
                {PRODUCT_NAME}
              </span>
              <span className="hidden truncate text-xs text-muted-foreground sm:block">
                {PRODUCT_TAGLINE}
              </span>
            </span>
          </Link>

          <nav
            aria-label="Main"
            className="order-3 -mx-4 w-[calc(100%+2rem)] border-t px-3 sm:-mx-6 sm:w-[calc(100%+3rem)] sm:px-6 lg:-mx-8 lg:w-[calc(100%+4rem)] lg:px-8 xl:order-2 xl:mx-0 xl:w-auto xl:border-t-0 xl:px-0"
          >
            <ul className="grid grid-cols-4 gap-1 py-2 sm:flex sm:justify-center xl:py-0">
              {navItemsByRole[role].map(({ label, to, icon: Icon, end, showsUnreadCount }) => {
                const unread = showsUnreadCount ? unreadCount : 0;
                return (
                  <li key={to} className="min-w-0">
                    <NavLink
                      to={to}
                      end={end}
                      className={({ isActive }) =>
                        cn(
                          'flex h-14 flex-col items-center justify-center gap-1 rounded-lg px-1 text-[11px] font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-3 focus-visible:ring-ring/50',
                          'sm:h-9 sm:flex-row sm:gap-2 sm:rounded-full sm:px-3.5 sm:text-sm',
                          isActive
                            ? 'bg-primary text-primary-foreground shadow-sm'
                            : 'text-muted-foreground hover:bg-accent hover:text-accent-foreground',
                        )
                      }
                    >
                      <span className="relative flex">
                        <Icon aria-hidden="true" className="size-5 sm:size-4" />
                        {unread > 0 ? (
                          // Phones: on the icon of the tab.
                          <span
                            aria-hidden="true"
                            className={cn(
                              unreadBadgeClassName,
                              'absolute -top-1.5 left-3 flex ring-2 ring-card sm:hidden',
                            )}
                          >
                            {badgeText(unread)}
                          </span>
                        ) : null}
                      </span>
                      {unread > 0 ? (
                        // The name reads "Notifications, 3 unread" and the badges are for the
                        // eyes only. Text rather than aria-label, so the name keeps containing the
                        // visible label (WCAG 2.5.3 Label in Name); one whole sentence, because a
                        // visually hidden fragment would be read as a separate block.
                        <>
                          <span className="sr-only">{`${label}, ${unread.toString()} unread`}</span>
                          <span aria-hidden="true">{label}</span>
                        </>
                      ) : (
                        label
                      )}
                      {unread > 0 ? (
                        <span
                          aria-hidden="true"
                          className={cn(unreadBadgeClassName, 'hidden sm:inline-flex')}
                        >
                          {badgeText(unread)}
                        </span>
                      ) : null}
                    </NavLink>
                  </li>
                );
              })}
            </ul>
          </nav>

          <div className="order-2 ml-auto flex min-w-0 items-center justify-self-end xl:order-3 xl:ml-0">
            <AccountMenu role={role} />
          </div>
        </div>
      </header>

      <main
        id="main-content"
        tabIndex={-1}
        className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 outline-none sm:px-6 sm:py-10 lg:px-8"
      >
        {children}
      </main>

      <footer className="border-t">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
          <p>
            © {new Date().getFullYear()} {PRODUCT_NAME}. Amounts in USD.
          </p>
          <ul className="flex gap-4">
            <li>
              <Link to={paths.terms.href()} className="rounded-sm hover:text-foreground">
                Terms of Service
              </Link>
            </li>
            <li>
              <Link to={paths.privacy.href()} className="rounded-sm hover:text-foreground">
                Privacy Policy
              </Link>
            </li>
          </ul>
        </div>
      </footer>
    </div>
  );
}
