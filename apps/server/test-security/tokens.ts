import { decodeJwt, SignJWT, type JWTPayload } from 'jose';
import { TEST_JWT_SECRET } from '../test/support/databases.ts';

/**
 * Access tokens a client could forge from a real one (read with decodeJwt, so every claim the
 * server expects is there): each differs from a valid token in exactly one way.
 */
export interface ForgedTokens {
  /** HS256 with the server's secret, but exp an hour in the past. */
  expired: string;
  /** Valid claims signed with a secret the server does not know. */
  otherSecret: string;
  /** `alg: none`, valid claims, no signature. */
  algNone: string;
  /** The real token with its role claim switched, signature kept. */
  tamperedRole: string;
}

const OTHER_SECRET = 'another-secret-that-is-just-as-long-but-not-the-servers';

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function sign(claims: JWTPayload, secret: string, issuedAt: number, expiresAt: number) {
  return new SignJWT({ role: claims.role, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.sub))
    .setIssuer(String(claims.iss))
    .setAudience(claims.aud ?? '')
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(secret));
}

export async function forgeTokens(realToken: string, now: Date): Promise<ForgedTokens> {
  const claims = decodeJwt(realToken);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const [header = '', , signature = ''] = realToken.split('.');
  return {
    expired: await sign(claims, TEST_JWT_SECRET, nowSeconds - 7200, nowSeconds - 3600),
    otherSecret: await sign(claims, OTHER_SECRET, nowSeconds, nowSeconds + 3600),
    algNone: `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url(
      JSON.stringify({ ...claims, iat: nowSeconds, exp: nowSeconds + 3600 }),
    )}.`,
    tamperedRole: `${header}.${base64url(
      JSON.stringify({
        ...claims,
        role: claims.role === 'enterprise' ? 'node_provider' : 'enterprise',
      }),
    )}.${signature}`,
  };
}
