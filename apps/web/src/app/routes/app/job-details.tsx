import { SHORT_ID_LENGTH } from '@fabric/contract';
import { FileClock } from 'lucide-react';
import { useParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { BackLink } from './back-link';

export function JobDetailsRoute() {
  const { jobId = '' } = useParams();
  return (
    <>
      <BackLink to={paths.jobs.list.href()}>Back to My Jobs</BackLink>
      <PageHeader
        title="Job Details"
        description={
          <>
            Job <span className="font-mono">{jobId.slice(0, SHORT_ID_LENGTH)}</span>
          </>
        }
      />
      <EmptyState icon={FileClock} title="This job’s details will appear here">
        <p>Its status, parameters, cost, the node that ran it and its result.</p>
      </EmptyState>
    </>
  );
}
