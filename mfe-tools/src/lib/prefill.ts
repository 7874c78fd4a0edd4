import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { validateDomain } from './domain';

/**
 * The values a generator starts from, read once from its address (`?domain=example.com&p=none`):
 * the next-step links of the checkers prefill the generators so. A domain goes through the one
 * domain rule; a value outside `allowed` is ignored, as if the link had not given it.
 */
export function usePrefill() {
  const [params] = useSearchParams();
  return useMemo(() => {
    const text = (name: string, maxLength = 2048): string | undefined => {
      const value = params.get(name)?.trim();
      return value && value.length <= maxLength ? value : undefined;
    };
    return {
      text,
      domain: (): string | undefined => {
        const value = text('domain', 1024);
        const result = value === undefined ? undefined : validateDomain(value);
        return result?.ok ? result.value : undefined;
      },
      oneOf: <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
        const value = text(name, 64)?.toLowerCase();
        return allowed.find((candidate) => candidate === value);
      },
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once: a generator's fields belong to the person after the first render
  }, []);
}
