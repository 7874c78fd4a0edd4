import { AddMonitorModal } from '../features/add-monitor/AddMonitorModal';

/** `account/AddMonitorModal`: the shell's account frame opens it (see packages/contracts/src/remote-modules.ts). */
export default AddMonitorModal;
