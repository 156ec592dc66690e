import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach } from 'vitest';

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
