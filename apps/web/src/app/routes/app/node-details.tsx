import { SHORT_ID_LENGTH } from '@fabric/contract';
import { Cpu } from 'lucide-react';
import { useParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { BackLink } from './back-link';

export function NodeDetailsRoute() {
  const { nodeId = '' } = useParams();
  return (
    <>
      <BackLink to={paths.nodes.list.href()}>Back to My Nodes</BackLink>
      <PageHeader
        title="Node Details"
        description={
          <>
            Node <span className="font-mono">{nodeId.slice(0, SHORT_ID_LENGTH)}</span>
          </>
        }
      />
      <EmptyState icon={Cpu} title="This node’s details will appear here">
        <p>Its status, hardware, uptime, earnings and the jobs it has run.</p>
      </EmptyState>
    </>
  );
}
