import { Button, MessageArea, MessageText, MessageTitle } from '../layout/plain';

export function RegistryUnavailablePage() {
  return (
    <MessageArea role="alert">
      <MessageTitle>We could not load this page</MessageTitle>
      <MessageText>The site is having trouble right now. Please try again in a moment.</MessageText>
      <Button type="button" variant="contained" onClick={() => window.location.reload()}>
        Retry
      </Button>
    </MessageArea>
  );
}
