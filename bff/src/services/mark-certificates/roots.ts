import { readFileSync } from 'node:fs';
import { RootStore } from '@postalsys/vmc';

/** The certificates of a trusted roots file (TOOLS_EXTRA_MARK_ROOTS_FILE, our own configuration), as PEM texts. */
export function readMarkRootsFile(file: string | undefined): string[] {
  if (!file) return [];
  return readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** The roots mark certificates must chain to: the issuers' (DigiCert, Entrust, GlobalSign, SSL.com), plus `extraRoots`. */
export function markRootStore(extraRoots: readonly string[]): RootStore {
  const store = RootStore.create();
  for (const pem of extraRoots) store.addCert(pem);
  return store;
}
