import { PRODUCT_NAME } from '@fabric/contract';
import { LegalPage, type LegalSection } from './legal-page';

const sections: readonly LegalSection[] = [
  {
    title: 'Who We Are and What This Covers',
    body: (
      <p>
        This policy explains what personal information {PRODUCT_NAME} collects when you use the web
        app, the API and the node agent, why we collect it, and the choices you have. It applies to
        node providers, enterprises and anyone who visits the app.
      </p>
    ),
  },
  {
    title: 'Information You Give Us',
    body: (
      <ul>
        <li>Account details: your email address, password and role.</li>
        <li>
          Profile details: your name, or for enterprises the organization name, domain and industry.
        </li>
        <li>
          Payout and billing details, entered with our payment processor. Card and bank numbers go
          to the processor; we keep only references and the status of your connected account.
        </li>
      </ul>
    ),
  },
  {
    title: 'Information Collected When You Use the Service',
    body: (
      <ul>
        <li>
          From the node agent: a device identifier, hardware details (CPU, memory, operating
          system), heartbeats showing the device is online, and the resources each job used.
        </li>
        <li>
          From enterprises: the jobs you submit, their parameters and results, and their status and
          cost.
        </li>
        <li>
          Technical data: IP address, browser type and request times, used for security, rate
          limiting and troubleshooting.
        </li>
      </ul>
    ),
  },
  {
    title: 'How We Use Information',
    body: (
      <ul>
        <li>to create and secure your account and keep you signed in;</li>
        <li>to schedule jobs on suitable devices and return their results;</li>
        <li>to measure usage, bill enterprises from their credits and pay providers monthly;</li>
        <li>to detect fraud, abuse and tampered results;</li>
        <li>to send messages about your account, such as password reset links and receipts.</li>
      </ul>
    ),
  },
  {
    title: 'Job Data on Provider Devices',
    body: (
      <>
        <p>
          A job’s parameters and input are sent to the provider device that runs it, and its result
          comes back to us. Jobs run isolated from the rest of the device, and providers are not
          told which enterprise submitted a job.
        </p>
        <p>
          Do not put personal data in a job unless you need to and may lawfully process it on
          third-party hardware. Enterprises act as controllers of the data in their jobs.
        </p>
      </>
    ),
  },
  {
    title: 'Payments',
    body: (
      <p>
        Credit purchases and provider payouts are handled by our payment processor, which receives
        the details it needs to move money and verify identity as the law requires. Amounts are kept
        in US dollars in our ledger, together with the transactions shown on your billing page.
      </p>
    ),
  },
  {
    title: 'Sharing and Disclosure',
    body: (
      <>
        <p>We do not sell your personal information or use it for advertising. We share it only:</p>
        <ul>
          <li>with service providers that host the service, send email or process payments;</li>
          <li>with a provider device, limited to the job data needed to run a job;</li>
          <li>when the law requires it, or to protect users and the network from harm.</li>
        </ul>
      </>
    ),
  },
  {
    title: 'Browser Storage',
    body: (
      <p>
        The web app keeps your session in your browser’s local storage: an access token, a refresh
        token, your user id, email and role. It uses no advertising or tracking cookies. Signing out
        clears everything the app stored in your browser.
      </p>
    ),
  },
  {
    title: 'Security and Retention',
    body: (
      <>
        <p>
          Traffic is encrypted in transit. Passwords are stored only as salted hashes, refresh
          tokens only as hashes, and stolen refresh tokens are detected and revoked when reused.
        </p>
        <p>
          We keep account data while your account is open. Billing and payout records are kept as
          long as tax and accounting law requires; job inputs and results are deleted after they are
          no longer needed to deliver and bill the job.
        </p>
      </>
    ),
  },
  {
    title: 'Your Rights and Changes to This Policy',
    body: (
      <>
        <p>
          You can see and correct your profile in Settings, and you can ask us for a copy of your
          data or for its deletion through the support channel of your account. Depending on where
          you live, you may also object to or restrict some processing, and complain to your data
          protection authority.
        </p>
        <p>
          When we change this policy we update the date above and, for material changes, tell you in
          the app first.
        </p>
      </>
    ),
  },
];

export function PrivacyRoute() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <p>
          {PRODUCT_NAME} handles the data of people who share their devices and of organizations
          that run workloads. This policy says what we collect and how we protect it.
        </p>
      }
      sections={sections}
    />
  );
}
