import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach } from 'vitest';

// findBy/waitFor give up after 1 s by default; the first render of a lazily loaded route can take
// longer on a busy 2-core CI machine. This is a ceiling for waiting, not a speed requirement.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks the layout observers Radix's popper and sizing hooks subscribe to.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in globalThis)) globalThis.ResizeObserver = ResizeObserverStub;
// jsdom does not scroll; React Router's ScrollRestoration calls this on every navigation.
window.scrollTo = () => undefined;

afterEach(() => {
  // Sonner keeps active toasts in module state and replays them to the next Toaster.
  toast.dismiss();
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
