import {
  ADVERTISED_EARNINGS_PER_DAY_USD,
  DEFAULT_MINIMUM_PAYOUT_USD,
  PRODUCT_NAME,
} from '@fabric/contract';
import { LegalPage, type LegalSection } from './legal-page';

const sections: readonly LegalSection[] = [
  {
    title: 'Acceptance of These Terms',
    body: (
      <>
        <p>
          These Terms of Service govern your use of {PRODUCT_NAME}, a marketplace that connects
          people who share the compute of their devices (“node providers”) with organizations that
          run compute jobs on them (“enterprises”). By creating an account or using the service you
          agree to these terms. If you use {PRODUCT_NAME} on behalf of an organization, you confirm
          that you may bind it to them.
        </p>
        <p>You must be at least 18 years old, or the age of majority where you live, to use it.</p>
      </>
    ),
  },
  {
    title: 'Accounts and Roles',
    body: (
      <>
        <p>
          Each account has one role, chosen at sign-up: node provider or enterprise. You are
          responsible for keeping your password secret and for everything done with your account.
          Tell us at once if you believe someone else has used it.
        </p>
        <p>
          The information you give us, such as your name, organization name, domain and industry,
          must be accurate, and you must keep it up to date in Settings.
        </p>
      </>
    ),
  },
  {
    title: 'Sharing Compute as a Node Provider',
    body: (
      <>
        <p>
          To share compute you install the {PRODUCT_NAME} agent on a device you own or are
          authorized to use. The agent receives jobs from the network, runs them on that device and
          reports the results and the resources each job used. You can pause or remove a device at
          any time; a job already running may be cancelled when you do.
        </p>
        <ul>
          <li>Jobs run isolated from your files and accounts; the agent does not read them.</li>
          <li>
            Electricity, connectivity and wear of your hardware are your own costs, and you are
            responsible for any permission your employer, landlord or network provider requires.
          </li>
          <li>
            You must not tamper with jobs, their results or the usage the agent reports, or inspect
            the data of jobs run on your device beyond what the agent shows you.
          </li>
        </ul>
      </>
    ),
  },
  {
    title: 'Provider Earnings and Payouts',
    body: (
      <>
        <p>
          Node providers are paid monthly, based on the actual resources their devices used to run
          jobs (compute time and memory) as measured by the agent and verified by {PRODUCT_NAME}.
          Earnings accrue in US dollars and appear in your balance once a job completes; results
          that fail verification earn nothing.
        </p>
        <p>
          Payouts are made to the bank account you connect through our payment processor, once your
          balance reaches your minimum payout amount (by default ${DEFAULT_MINIMUM_PAYOUT_USD}).
          Figures such as ${ADVERTISED_EARNINGS_PER_DAY_USD.min}–$
          {ADVERTISED_EARNINGS_PER_DAY_USD.max} a day per device are averages, not a promise: what
          you earn depends on demand and on your hardware and availability. You are responsible for
          the taxes on your earnings.
        </p>
      </>
    ),
  },
  {
    title: 'Jobs, Credits and Billing for Enterprises',
    body: (
      <>
        <p>
          Enterprises pay for jobs with prepaid credits, bought in US dollars. When you submit a
          job, its estimate is held on your credits; when it finishes, it is billed on the compute
          it actually used at the published rates, never more than the amount held, and the rest of
          the hold returns to your balance.
        </p>
        <ul>
          <li>A job you cancel is billed only for the usage up to the cancellation.</li>
          <li>
            A job that fails because of the network or a provider’s device is not charged and may be
            retried on another node.
          </li>
        </ul>
        <p>
          You are responsible for the content of the jobs you submit and for having the right to
          process the data they contain.
        </p>
      </>
    ),
  },
  {
    title: 'Acceptable Use',
    body: (
      <>
        <p>You may not use {PRODUCT_NAME} to:</p>
        <ul>
          <li>run anything unlawful, or process data you have no right to process;</li>
          <li>mine cryptocurrency, send spam, or attack or scan other systems;</li>
          <li>escape the isolation of a job, or interfere with the agent or other users’ jobs;</li>
          <li>create accounts automatically, resell access, or get around rate limits.</li>
        </ul>
        <p>
          We may stop a job, hold a balance under review, or suspend an account that breaks these
          rules, and we will tell you why unless the law prevents us.
        </p>
      </>
    ),
  },
  {
    title: 'Disclaimers and Limitation of Liability',
    body: (
      <>
        <p>
          {PRODUCT_NAME} is provided “as is”. Jobs run on devices operated by independent providers,
          so we do not guarantee that the service is uninterrupted, that a job finishes within a
          given time, or that a device stays available.
        </p>
        <p>
          To the extent the law allows, our total liability for any claim is limited to the amount
          you paid us, or we paid you, in the three months before the claim, and we are not liable
          for indirect or consequential losses. Nothing in these terms limits liability that cannot
          be limited by law.
        </p>
      </>
    ),
  },
  {
    title: 'Changes, Termination and Contact',
    body: (
      <>
        <p>
          We may update these terms; the date above shows the latest version, and we will notify you
          in the app before material changes take effect. You may close your account at any time;
          earned provider balances above the minimum are paid out in the next monthly run.
        </p>
        <p>
          For questions about these terms, reach our team through the support channel of your
          account.
        </p>
      </>
    ),
  },
];

export function TermsRoute() {
  return (
    <LegalPage
      title="Terms of Service"
      intro={
        <p>
          Plain-language terms for using {PRODUCT_NAME}, whether you share compute or run workloads.
          Please read them before you create an account.
        </p>
      }
      sections={sections}
    />
  );
}
