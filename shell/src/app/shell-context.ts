import { createContext, useContext } from 'react';
import type { PublicConfig } from '@bimi/contracts/public-config';
import type { RegistryState } from '../federation/registry';

export const ShellContext = createContext<{ registry: RegistryState; config: PublicConfig } | null>(null);

export function useShell() {
  const value = useContext(ShellContext);
  if (!value) throw new Error('useShell must be used inside the shell');
  return value;
}
