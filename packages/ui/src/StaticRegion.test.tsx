import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { ServerMarkup, StaticRegion } from './StaticRegion';

describe('StaticRegion on the server', () => {
  it('renders its content inside an element that takes no box of its own, with its data attributes', () => {
    const html = renderToString(
      <MemoryRouter>
        <StaticRegion data-remote="storefront">
          <a href="/faq">FAQ</a>
        </StaticRegion>
      </MemoryRouter>,
    );
    expect(html).toBe('<div data-remote="storefront" style="display:contents"><a href="/faq">FAQ</a></div>');
  });

  it('renders ServerMarkup empty: in the browser it stands for markup the server already sent', () => {
    expect(renderToString(<MemoryRouter>{<ServerMarkup data-remote="storefront" />}</MemoryRouter>)).toBe('<div data-remote="storefront" style="display:contents"></div>');
  });
});
