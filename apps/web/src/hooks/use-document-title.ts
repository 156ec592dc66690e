import { PRODUCT_NAME } from '@fabric/contract';
import { useEffect } from 'react';

/** "My Nodes · Fabric" in the tab and in what screen readers announce on navigation. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
