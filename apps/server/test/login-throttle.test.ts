import { apiPaths, ERROR_CODES } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import {
  bearer,
  login,
  registerUser,
  TEST_PASSWORD,
  uniqueEmail,
  uniqueIp,
} from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import { describeEachDatabase } from './support/databases.ts';
import { createRecordingMailer, type RecordingMailer } from './support/mailer.ts';

/** The default AUTH_RATE_LIMIT_PER_ACCOUNT: failures from one address before it has to wait. */
const FREE_FAILURES = 5;
const SECOND = 1000;

describeEachDatabase('login throttle per account and address', (database) => {
  const clock = createManualClock();
  let app: FastifyInstance;
  let otherProcess: FastifyInstance;
  let mailer: RecordingMailer;

  beforeAll(async () => {
    mailer = createRecordingMailer();
    // The default limits: only the per-IP limit of other suites is raised by the test support.
    app = await database.buildApp({ clock: clock.now, mailer });
    // A second app on the same database stands for a second server process.
    otherProcess = await database.buildApp({ clock: clock.now });
  });

  const wrong = (email: string, address: string, server = app) =>
    login(server, { email, password: 'wrong password' }, address);
  const right = (email: string, address: string, server = app) =>
    login(server, { email, password: TEST_PASSWORD }, address);

  async function failLogins(email: string, address: string, count: number, server = app) {
    for (let attempt = 0; attempt < count; attempt += 1) {
      expect((await wrong(email, address, server)).statusCode).toBe(401);
    }
  }

  function expectWait(response: Awaited<ReturnType<typeof login>>, seconds: number, wait: string) {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({
      message: `Too many failed sign-in attempts for this account from your network. Please try again in ${wait}.`,
      code: ERROR_CODES.rateLimited,
    });
    expect(Number(response.headers['retry-after'])).toBe(seconds);
  }

  it('never locks the owner out: after ten wrong passwords from one address, the right one from another signs in', async () => {
    const { email } = await registerUser(app);
    const stranger = uniqueIp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      statuses.push((await wrong(email, stranger)).statusCode);
    }

    expect((await right(email, uniqueIp())).statusCode).toBe(200);
    // ... and from any number of other addresses, on any process.
    expect((await right(email, uniqueIp(), otherProcess)).statusCode).toBe(200);
    // The stranger's own address was made to wait after its free failures.
    expect(statuses).toEqual([...Array<number>(FREE_FAILURES).fill(401), 429, 429, 429, 429, 429]);
  });

  it('makes an address that keeps failing wait 1 s, then 2 s, then 4 s, even with the right password', async () => {
    const { email } = await registerUser(app);
    const address = uniqueIp();
    await failLogins(email, address, FREE_FAILURES);

    expectWait(await right(email, address), 1, '1 second');
    clock.advanceBy(SECOND);
    expect((await wrong(email, address)).statusCode).toBe(401);

    expectWait(await wrong(email, address), 2, '2 seconds');
    clock.advanceBy(SECOND);
    expectWait(await right(email, address), 1, '1 second');
    clock.advanceBy(SECOND);
    expect((await wrong(email, address)).statusCode).toBe(401);

    expectWait(await right(email, address), 4, '4 seconds');
    clock.advanceBy(4 * SECOND);
    // The right password from that address, once the wait is over, signs in.
    expect((await right(email, address)).statusCode).toBe(200);
  });

  it('never makes an address wait more than 15 minutes', async () => {
    const { email } = await registerUser(app);
    const address = uniqueIp();
    await failLogins(email, address, FREE_FAILURES);
    // Waits of 1, 2, 4 ... 512 seconds, each followed by one more wrong guess.
    const waits: [number, string][] = [
      [1, '1 second'],
      [2, '2 seconds'],
      [4, '4 seconds'],
      [8, '8 seconds'],
      [16, '16 seconds'],
      [32, '32 seconds'],
      [64, '2 minutes'],
      [128, '3 minutes'],
      [256, '5 minutes'],
      [512, '9 minutes'],
    ];
    for (const [wait, described] of waits) {
      expectWait(await wrong(email, address), wait, described);
      clock.advanceBy(wait * SECOND);
      expect((await wrong(email, address)).statusCode).toBe(401);
    }
    expectWait(await right(email, address), 15 * 60, '15 minutes');
    clock.advanceBy(15 * 60 * SECOND);
    expect((await wrong(email, address)).statusCode).toBe(401);
    expectWait(await right(email, address), 15 * 60, '15 minutes');
    clock.advanceBy(15 * 60 * SECOND);
    expect((await right(email, address)).statusCode).toBe(200);
  });

  it('starts an address afresh after it signs in with the right password', async () => {
    const { email } = await registerUser(app);
    const address = uniqueIp();
    await failLogins(email, address, FREE_FAILURES - 1);
    expect((await right(email, address)).statusCode).toBe(200);
    await failLogins(email, address, FREE_FAILURES - 1);
    expect((await right(email, address)).statusCode).toBe(200);
  });

  it("forgets an address's failures a day after the last one", async () => {
    const { email } = await registerUser(app);
    const address = uniqueIp();
    await failLogins(email, address, FREE_FAILURES);
    expect((await right(email, address)).statusCode).toBe(429);
    clock.advanceBy(24 * 60 * 60 * SECOND);
    await failLogins(email, address, FREE_FAILURES);
  });

  it('shares the count between server processes through the database', async () => {
    const { email } = await registerUser(app);
    const address = uniqueIp();
    await failLogins(email, address, 3, app);
    await failLogins(email, address, FREE_FAILURES - 3, otherProcess);
    expect((await right(email, address, otherProcess)).statusCode).toBe(429);
    expect((await right(email, address, app)).statusCode).toBe(429);
  });

  it('counts simultaneous guesses from one address exactly', async () => {
    const { email } = await registerUser(app);
    const address = uniqueIp();
    const statuses = (
      await Promise.all(
        Array.from({ length: 8 }, () => login(app, { email, password: 'parallel guess' }, address)),
      )
    ).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(FREE_FAILURES);
    expect(statuses.filter((status) => status === 429)).toHaveLength(8 - FREE_FAILURES);
  });

  it('does not count successful logins', async () => {
    const { email } = await registerUser(app);
    const address = uniqueIp();
    for (let attempt = 0; attempt < FREE_FAILURES + 2; attempt += 1) {
      expect((await right(email, address)).statusCode).toBe(200);
    }
  });

  it('limits an email without an account the same way, so a 429 reveals nothing', async () => {
    const email = uniqueEmail('nobody');
    const address = uniqueIp();
    await failLogins(email, address, FREE_FAILURES);
    expectWait(await right(email, address), 1, '1 second');
  });

  it("leaves the address's sign-ins to other accounts alone", async () => {
    const target = await registerUser(app);
    const other = await registerUser(app);
    const address = uniqueIp();
    await failLogins(target.email, address, FREE_FAILURES);
    expect((await right(target.email, address)).statusCode).toBe(429);
    expect((await right(other.email, address)).statusCode).toBe(200);
  });

  it('counts wrong current passwords of a password change for the same account and address', async () => {
    const { email, auth } = await registerUser(app);
    const address = uniqueIp();
    const changePassword = () =>
      app.inject({
        method: 'PUT',
        url: apiPaths.auth.password,
        headers: bearer(auth.access_token),
        payload: { current_password: 'guess number x', new_password: 'a new password' },
        remoteAddress: address,
      });
    for (let attempt = 0; attempt < FREE_FAILURES; attempt += 1) {
      expect((await changePassword()).statusCode).toBe(400);
    }
    const limited = await changePassword();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      message:
        'Too many failed password attempts for this account from your network. Please try again in 1 second.',
    });
    expect((await right(email, address)).statusCode).toBe(429);
    expect((await right(email, uniqueIp())).statusCode).toBe(200);
  });

  it('lifts the waits of every address when the owner resets the password by email', async () => {
    const { email } = await registerUser(app);
    const first = uniqueIp();
    const second = uniqueIp();
    await failLogins(email, first, FREE_FAILURES);
    await failLogins(email, second, FREE_FAILURES);
    expect((await right(email, first)).statusCode).toBe(429);

    await app.inject({
      method: 'POST',
      url: apiPaths.auth.forgotPassword,
      payload: { email },
      remoteAddress: uniqueIp(),
    });
    const reset = await app.inject({
      method: 'POST',
      url: apiPaths.auth.resetPassword,
      payload: { token: mailer.lastResetToken(email), new_password: 'recovered passphrase' },
      remoteAddress: uniqueIp(),
    });
    expect(reset.statusCode).toBe(200);
    for (const address of [first, second]) {
      expect(
        (await login(app, { email, password: 'recovered passphrase' }, address)).statusCode,
      ).toBe(200);
    }
  });
});
