import { describeRemoteContract } from '@bimi/ui/remote-contract';
import table from '../app/routes.json';
import * as routes from './routes';

describeRemoteContract({ remote: 'checkout', appDir: `${__dirname}/../..`, routes, table });
