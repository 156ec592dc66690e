import { PRODUCT_NAME, PRODUCT_TAGLINE } from '@fabric/contract';
import { Cpu, Gauge, ShieldCheck, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LogoMark } from '@/components/logo';
import { paths } from '@/config/paths';

const highlights = [
  {
    icon: Cpu,
    title: 'Earn from idle devices',
    text: 'Run the Fabric agent and get paid monthly for the compute your devices actually deliver.',
  },
  {
    icon: Gauge,
    title: 'Run AI workloads on demand',
    text: 'Submit training and inference jobs to a distributed network of machines.',
  },
  {
    icon: Wallet,
    title: 'Pay for actual usage',
    text: 'Enterprises are billed in USD from prepaid credits, only for the compute used.',
  },
  {
    icon: ShieldCheck,
    title: 'Isolated and accountable',
    text: 'Jobs run sandboxed on provider devices; every run is metered and recorded.',
  },
];

/** Public auth screens: product pitch beside the form on wide screens, the form alone on phones. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <aside className="relative hidden overflow-hidden bg-linear-to-br from-brand-from to-brand-to p-12 text-white lg:flex lg:flex-col">
        <WeavePattern />
        <Link
          to={paths.home.href()}
          className="relative flex w-fit items-center gap-3 rounded-md focus-visible:outline-white"
        >
          <LogoMark className="size-10 [&_rect]:text-white/15" />
          <span className="text-xl font-semibold tracking-tight">{PRODUCT_NAME}</span>
        </Link>
        <div className="relative my-auto max-w-lg py-12">
          <p className="text-sm font-medium tracking-wide text-indigo-200 uppercase">
            {PRODUCT_TAGLINE}
          </p>
          <p className="mt-3 text-4xl leading-tight font-semibold tracking-tight text-balance">
            The world’s spare compute, woven into one network.
          </p>
          <ul className="mt-10 grid gap-6">
            {highlights.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/10 ring-1 ring-white/15">
                  <Icon aria-hidden="true" className="size-5 text-indigo-100" />
                </span>
                <span>
                  <span className="block font-medium">{title}</span>
                  <span className="mt-0.5 block text-sm leading-relaxed text-indigo-100/85">
                    {text}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-xs text-indigo-200/80">
          © {new Date().getFullYear()} {PRODUCT_NAME}. Prices and payouts in USD.
        </p>
      </aside>

      <main className="flex flex-col items-center justify-center px-4 py-10 sm:px-8">
        <div className="w-full max-w-md">
          <Link
            to={paths.home.href()}
            className="mx-auto mb-8 flex w-fit items-center gap-2.5 rounded-md lg:hidden"
          >
            <LogoMark />
            <span className="text-xl font-semibold tracking-tight">{PRODUCT_NAME}</span>
          </Link>
          {children}
        </div>
      </main>
    </div>
  );
}

/** Faint woven threads behind the pitch. Decorative. */
function WeavePattern() {
  return (
    <svg
      aria-hidden="true"
      className="pointer-events-none absolute inset-0 size-full opacity-[0.07]"
    >
      <defs>
        <pattern id="weave" width="48" height="48" patternUnits="userSpaceOnUse">
          <path d="M0 12h48M0 36h48" stroke="white" strokeWidth="2" />
          <path d="M12 0v48M36 0v48" stroke="white" strokeWidth="2" strokeDasharray="8 4" />
        </pattern>
      </defs>
      <rect width="100%" height="100%" fill="url(#weave)" />
    </svg>
  );
}
