import { admissionProblems, type AdmissionInput } from './remote-admission';
import type { RemoteRoute } from './registry';

function account(routes: RemoteRoute[]): AdmissionInput {
  return {
    name: 'account',
    manifest: { name: 'account', metaData: { buildInfo: { buildVersion: '1.0.0' } }, exposes: [{ path: './routes' }], shared: [] },
    routes: { remote: 'account', routes },
    sharing: { singletons: {} },
  };
}
const page = (path: string, redirectTo?: string): RemoteRoute => ({ path, title: 'Page', layout: 'account', header: 'white', ...(redirectTo ? { redirectTo } : {}) });

describe('a route that only forwards', () => {
  it('goes live when it leads to a page of the remote', () => {
    expect(admissionProblems(account([page('/account', '/account/dashboard'), page('/account/dashboard'), page('/account/orders/:id')]))).toEqual([]);
    expect(admissionProblems(account([page('/account', '/account/orders/42'), page('/account/orders/:id')]))).toEqual([]);
  });

  it('is refused when it leads nowhere, to itself or to another forward', () => {
    expect(admissionProblems(account([page('/account', '/checkout'), page('/account/dashboard')]))).toEqual(['its route /account forwards to /checkout, which is none of its pages']);
    expect(admissionProblems(account([page('/account', '/account')]))).toEqual(['its route /account forwards to /account, which forwards again']);
    expect(admissionProblems(account([page('/account', '/account/settings'), page('/account/settings', '/account'), page('/account/dashboard')]))).toEqual([
      'its route /account forwards to /account/settings, which forwards again',
      'its route /account/settings forwards to /account, which forwards again',
    ]);
  });
});
