// Compile-time contract: what this remote exposes must match the types the shell loads
// it with (packages/contracts/src/remote-modules.ts). The type check fails otherwise.
import type { AddMonitorModalModule, RemoteRoutesModule } from '@bimi/contracts/remote-modules';
import * as routes from './routes';
import * as addMonitorModal from './AddMonitorModal';

routes satisfies RemoteRoutesModule;
addMonitorModal satisfies AddMonitorModalModule;

export {};
