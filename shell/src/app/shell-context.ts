import { createContext, useContext } from 'react';
import type { ConsentChoice } from '@bimi/contracts/consent';
import type { PublicConfig } from '@bimi/contracts/public-config';
import type { RegistryState } from '../federation/registry';

export interface ShellContextValue {
  registry: RegistryState;
  config: PublicConfig;
  /**
   * On the server, the visitor's cookie choice as the request's cookie names it (the browser reads
   * its own cookie). Undefined in the browser.
   */
  serverConsent?: ConsentChoice | null;
}

export const ShellContext = createContext<ShellContextValue | null>(null);

export function useShell() {
  const value = useContext(ShellContext);
  if (!value) throw new Error('useShell must be used inside the shell');
  return value;
}
