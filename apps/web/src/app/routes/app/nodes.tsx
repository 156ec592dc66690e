import { PRODUCT_NAME } from '@fabric/contract';
import { Server } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function NodesRoute() {
  return (
    <>
      <PageHeader title="My Nodes" description="The devices you share with the network." />
      <EmptyState icon={Server} title="Your nodes will appear here">
        <p>
          Each device running the {PRODUCT_NAME} agent will be listed with its status, CPU and
          memory, jobs done, earnings and uptime. Downloading and enrolling the agent opens here
          next.
        </p>
      </EmptyState>
    </>
  );
}
