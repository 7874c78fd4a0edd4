import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';

/** A generator's multiple choice under one legend, spanning the form's two columns; `selected` keeps the order of choosing. */
export function CheckboxGroup({
  legend,
  options,
  selected,
  onChange,
  optionMinWidth,
}: {
  legend: string;
  options: readonly { value: string; label: string }[];
  selected: readonly string[];
  onChange: (update: (current: string[]) => string[]) => void;
  /** Lines long lists up in columns. */
  optionMinWidth?: number;
}) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, gridColumn: { sm: 'span 2' } }}>
      <FormLabel component="legend">{legend}</FormLabel>
      <FormGroup row>
        {options.map((option) => (
          <FormControlLabel
            key={option.value}
            label={option.label}
            sx={optionMinWidth ? { minWidth: optionMinWidth } : undefined}
            control={
              <Checkbox
                checked={selected.includes(option.value)}
                onChange={(event) => onChange((current) => (event.target.checked ? [...current, option.value] : current.filter((value) => value !== option.value)))}
              />
            }
          />
        ))}
      </FormGroup>
    </Box>
  );
}
