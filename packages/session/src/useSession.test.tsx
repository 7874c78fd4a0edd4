import { renderToString } from 'react-dom/server';
import { session } from './client';
import { ServerPageContext, type ServerPage } from './page-state';
import { useSession, useSignedIn } from './useSession';

const user = { user: { name: 'Ada Admin', email: 'ada@example.com' }, expires: '2030-01-01T00:00:00.000Z' };
const serverPage = { session: user, phone: false, sidebarCollapsed: false, answer: () => Promise.resolve(undefined) } as unknown as ServerPage;

function SignedIn() {
  return <i>{useSignedIn() ? 'yes' : 'no'}</i>;
}

function Status() {
  const state = useSession();
  return <i>{state.status}</i>;
}

afterEach(() => {
  session.status = 'loading';
  session.data = null;
});

describe('useSignedIn', () => {
  it('answers from the session store', () => {
    expect(renderToString(<SignedIn />)).toBe('<i>no</i>');
    session.status = 'unauthenticated';
    expect(renderToString(<SignedIn />)).toBe('<i>no</i>');
    session.status = 'authenticated';
    session.data = user as never;
    expect(renderToString(<SignedIn />)).toBe('<i>yes</i>');
  });

  it('answers yes for a page rendered for its signed-in visitor', () => {
    expect(
      renderToString(
        <ServerPageContext.Provider value={serverPage}>
          <SignedIn />
        </ServerPageContext.Provider>,
      ),
    ).toBe('<i>yes</i>');
  });
});

describe('useSession', () => {
  it('says the status the store holds', () => {
    expect(renderToString(<Status />)).toBe('<i>loading</i>');
    session.status = 'unauthenticated';
    expect(renderToString(<Status />)).toBe('<i>unauthenticated</i>');
  });

  it('says loading, not unauthenticated, to a page that requires a session', () => {
    session.status = 'unauthenticated';
    function Required() {
      return <i>{useSession({ required: true, onUnauthenticated: () => {} }).status}</i>;
    }
    expect(renderToString(<Required />)).toBe('<i>loading</i>');
  });
});
