import { brand } from '@bimi/ui/brand';
import { ButtonLink, MessageArea, MessageText, MessageTitle, Overline } from '../layout/plain';

export function NotFoundPage() {
  return (
    <MessageArea data-testid="not-found">
      <Overline style={{ color: brand.blue }}>Error 404</Overline>
      <MessageTitle>Page not found</MessageTitle>
      <MessageText>The page you are looking for does not exist or has moved.</MessageText>
      <ButtonLink to="/">Back to the home page</ButtonLink>
    </MessageArea>
  );
}
