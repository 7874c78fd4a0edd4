// ESLint (flat config): the rules and import boundaries live in packages/eslint-config.
import { workspaceConfig } from '@bimi/eslint-config';

export default workspaceConfig(import.meta.dirname);
