import type { promises as dns } from 'node:dns';

/**
 * The ports the tools' and monitors' rules read through: DNS and a safe fetch of published files.
 * The plugins provide them (plugins/app/platform/dns.ts, plugins/app/platform/safe-fetch.ts,
 * plugins/app/tools/tool-answers.ts); the rules take them as arguments.
 */

export type FetchFailureReason = 'invalid-url' | 'not-https' | 'blocked-address' | 'dns' | 'timeout' | 'too-large' | 'http-status' | 'too-many-redirects' | 'network';

export class FetchRefusedError extends Error {
  override name = 'FetchRefusedError';
  constructor(
    readonly reason: FetchFailureReason,
    message: string,
  ) {
    super(message);
  }
}

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  accept: string;
}

export interface FetchedResource {
  url: string;
  /** Where the body came from after redirects. */
  finalUrl: string;
  redirects: string[];
  /** The address actually connected to. */
  address: string;
  contentType: string | undefined;
  body: Buffer;
}

export type SafeFetch = (url: string, limits: FetchLimits) => Promise<FetchedResource>;

/** The resolver calls the tools make; Node's Resolver has them all. */
export type ToolResolver = Pick<dns.Resolver, 'resolveTxt' | 'resolveMx' | 'resolve4' | 'resolve6' | 'resolveCname' | 'resolveNs' | 'resolvePtr' | 'resolveSoa' | 'resolveCaa'>;

/** What one tool run reads through: DNS and fetches that remember whether anything failed for a passing reason. */
export interface ToolIo {
  dns: ToolResolver;
  fetch: SafeFetch;
}
