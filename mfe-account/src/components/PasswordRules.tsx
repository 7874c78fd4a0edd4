import Box from '@mui/material/Box';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import RadioButtonUncheckedOutlined from '@mui/icons-material/RadioButtonUncheckedOutlined';
import { PASSWORD_MESSAGES, passwordProblems } from '@bimi/contracts/auth';

const RULES = [
  { message: PASSWORD_MESSAGES.tooShort, label: 'At least 10 characters' },
  { message: PASSWORD_MESSAGES.noLetter, label: 'A letter' },
  { message: PASSWORD_MESSAGES.noDigitOrSymbol, label: 'A number or a symbol' },
  { message: PASSWORD_MESSAGES.containsEmail, label: 'Not your email address' },
] as const;

/** The shared password rule (contracts' passwordProblems), shown live as the user types. */
export function PasswordRules({ password, email }: { password: string; email?: string }) {
  const problems = passwordProblems(password, email ? { email } : {});
  const tooLong = problems.includes(PASSWORD_MESSAGES.tooLong);
  return (
    <Box component="ul" aria-label="Password requirements" data-testid="password-rules" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1, display: 'grid', gap: 0.5 }}>
      {RULES.map((rule) => {
        const met = password.length > 0 && !problems.includes(rule.message);
        return (
          <Box component="li" key={rule.label} data-met={met} sx={{ display: 'flex', alignItems: 'center', gap: 1, fontSize: 14, color: met ? 'success.main' : 'text.secondary' }}>
            {met ? <CheckCircleOutlined sx={{ fontSize: 18 }} /> : <RadioButtonUncheckedOutlined sx={{ fontSize: 18 }} />}
            {rule.label}
          </Box>
        );
      })}
      {tooLong && (
        <Box component="li" sx={{ fontSize: 14, color: 'error.main' }}>
          {PASSWORD_MESSAGES.tooLong}
        </Box>
      )}
    </Box>
  );
}
