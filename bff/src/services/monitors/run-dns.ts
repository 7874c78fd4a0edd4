import type { ToolResolver } from '../tools/ports';

const METHODS = ['resolveTxt', 'resolveMx', 'resolve4', 'resolve6', 'resolveCname', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveCaa'] as const;

/**
 * The monitors' DNS, polite to the resolver: every query goes through `limited` (one limit for all
 * runs of this process), and within one run each question is asked once: the DMARC record that the
 * DMARC, BIMI and SPF checks all read is one query, its answer (or failure) shared.
 */
export function runResolver(resolver: ToolResolver, limited: <T>(call: () => Promise<T>) => Promise<T>): ToolResolver {
  const answers = new Map<string, Promise<unknown>>();
  const shared = Object.fromEntries(
    METHODS.map((method) => [
      method,
      (name: string) => {
        const key = `${method} ${name.toLowerCase()}`;
        let answer = answers.get(key);
        if (!answer) {
          answer = limited(() => (resolver[method] as (name: string) => Promise<unknown>).call(resolver, name));
          answers.set(key, answer);
        }
        return answer;
      },
    ]),
  );
  return shared as unknown as ToolResolver;
}
