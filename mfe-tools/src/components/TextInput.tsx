import { useId, type InputHTMLAttributes } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';

/**
 * An outlined text field, as MUI's TextField draws it, without TextField itself: TextField
 * always imports Select, Menu, Popover and Modal (about 12 KB gzip) that a checker's domain
 * field never uses. The generators, which do have selects, use TextField.
 */
export function TextInput({
  name,
  label,
  value,
  onChange,
  onBlur,
  error = false,
  helperText,
  placeholder,
  autoFocus,
  inputProps,
  sx,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: boolean;
  helperText?: string;
  placeholder?: string | undefined;
  autoFocus?: boolean;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  sx?: SxProps<Theme>;
}) {
  const id = useId();
  return (
    <FormControl variant="outlined" error={error} sx={sx}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        label={label}
        value={value}
        placeholder={placeholder}
        autoFocus={autoFocus}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        inputProps={{ ...inputProps, 'aria-describedby': helperText ? `${id}-helper` : undefined }}
      />
      {helperText !== undefined && <FormHelperText id={`${id}-helper`}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
