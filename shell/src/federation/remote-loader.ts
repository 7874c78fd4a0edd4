import { createContext, useContext } from 'react';
import { loadRemoteModule } from './registry';

/** Loads a remote's exposed module (`storefront`, `./routes`). */
export type RemoteModuleLoader = <T>(remote: string, expose: string) => Promise<T>;

/**
 * How RemoteRoute and RemoteWidget load a remote: in the browser with the shell's federation
 * runtime; on the server (src/server/render.tsx) with the loader the bff passes in.
 */
export const RemoteLoaderContext = createContext<RemoteModuleLoader>(loadRemoteModule);

export const useRemoteLoader = () => useContext(RemoteLoaderContext);
